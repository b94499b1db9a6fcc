import { mediaAddUrlInput } from '@shared/media-input';
import {
  isValidMediaUrl,
  MAX_MEDIA_PER_PRODUCT,
  MEDIA_MESSAGES,
  MEDIA_TYPES,
  type MediaTypeName,
} from '@shared/media-rules';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useZodForm } from '../../../lib/use-zod-form';
import { MEDIA_TYPE_LABEL } from './media-preview';
import { useAddMediaUrl } from './use-media';

const byUrl = mediaAddUrlInput.omit({ productId: true });
const blank = { url: '', fileName: '', mediaType: 'image' as MediaTypeName, altText: '' };

/** Adds media that lives at a URL; the file name is guessed from the URL's last part. */
export function MediaUrlForm(props: { productId: string; used: number; disabled: boolean }) {
  const form = useZodForm(byUrl, blank);
  const { values, set, error } = form;
  const [limit, setLimit] = useState<string | null>(null);
  const typeId = useId();
  const whyId = useId();
  // As the spec has it: no adding while a required field is blank or the product has all its slots.
  const full = props.used >= MAX_MEDIA_PER_PRODUCT;
  const why = full
    ? MEDIA_MESSAGES.limitReached
    : values.url.trim() === '' || values.fileName.trim() === ''
      ? 'Enter a URL and a file name to add media.'
      : null;
  const add = useAddMediaUrl(props.productId);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setLimit(full ? MEDIA_MESSAGES.limitReached : null);
    if (full) {
      form.validate();
      return;
    }
    const result = await form.save((fields) =>
      add.mutateAsync({ productId: props.productId, ...fields, url: fields.url.trim() }),
    );
    if (result === 'saved') form.setValues(blank);
    else if (typeof result === 'object' && result.code === 'CONFLICT') setLimit(result.message);
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      className="mt-6 space-y-3"
      aria-label="Add media by URL"
    >
      <h4 className="font-medium">Add by URL</h4>
      <TextField
        label="URL"
        type="url"
        value={values.url}
        onChange={(e) => set('url', e.target.value)}
        onBlur={() => {
          if (values.fileName === '' && isValidMediaUrl(values.url)) {
            const last = values.url.split(/[?#]/)[0]?.split('/').pop() ?? '';
            if (last) set('fileName', decodeURIComponent(last));
          }
        }}
        placeholder="https://… or /media/…"
        error={error('url')}
      />
      <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
        <TextField
          label="File name"
          value={values.fileName}
          onChange={(e) => set('fileName', e.target.value)}
          error={error('fileName')}
        />
        <div>
          <label htmlFor={typeId} className="block text-sm font-medium text-ink">
            Media type
          </label>
          <select
            id={typeId}
            value={values.mediaType}
            onChange={(e) => set('mediaType', e.target.value as MediaTypeName)}
            className="mt-1 block w-full rounded-lg border border-stone-line bg-white px-3 py-2 text-sm"
          >
            {MEDIA_TYPES.map((t) => (
              <option key={t} value={t}>
                {MEDIA_TYPE_LABEL[t]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <TextField
        label="Alt Text"
        value={values.altText}
        onChange={(e) => set('altText', e.target.value)}
        placeholder="Describe this media (for accessibility)"
        error={error('altText')}
      />
      {limit ? (
        <p className="text-sm text-red-700" role="alert">
          {limit}
        </p>
      ) : null}
      {/* Why the button is off; the alert above says it already when the server refused at the limit. */}
      {why && why !== limit ? (
        <p id={whyId} className="text-xs text-muted">
          {why}
        </p>
      ) : null}
      <Button
        type="submit"
        disabled={props.disabled || add.isPending || why !== null}
        aria-describedby={why && why !== limit ? whyId : undefined}
      >
        {add.isPending ? 'Adding…' : 'Add media'}
      </Button>
    </form>
  );
}
