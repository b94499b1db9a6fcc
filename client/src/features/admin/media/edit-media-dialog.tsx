import { mediaUpdateInput } from '@shared/media-input';
import type { FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { useZodForm } from '../../../lib/use-zod-form';
import { MediaPreview } from './media-preview';
import { type MediaItem, useUpdateMedia } from './use-media';

const editable = mediaUpdateInput.pick({ url: true, altText: true });

/** Changes where an item points and its alt text. */
export function EditMediaDialog(props: { productId: string; item: MediaItem; onClose: () => void }) {
  const { item } = props;
  const form = useZodForm(editable, { url: item.url, altText: item.altText ?? '' });
  const { values, set, error } = form;
  const update = useUpdateMedia(props.productId);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const result = await form.save((fields) => {
      const changedUrl = fields.url.trim() !== item.url;
      return update.mutateAsync({
        id: item.id,
        ...(changedUrl ? { url: fields.url.trim() } : {}),
        altText: fields.altText,
      });
    });
    if (result === 'saved') props.onClose();
  };

  return (
    <Modal title="Edit Media" onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <MediaPreview item={item} size="large" />
        <TextField
          label="URL"
          type="url"
          value={values.url}
          onChange={(e) => set('url', e.target.value)}
          error={error('url')}
          hint={
            item.uploaded
              ? 'This file was uploaded here; pointing it at another URL deletes the upload.'
              : undefined
          }
        />
        <TextField
          label="Alt Text"
          value={values.altText}
          onChange={(e) => set('altText', e.target.value)}
          placeholder="Describe this media (for accessibility)"
          error={error('altText')}
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={props.onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
