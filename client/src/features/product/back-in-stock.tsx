import { variantLabel } from '@shared/colours';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { trpc } from '../../lib/trpc';
import { useEarlyInput } from '../../lib/use-early-input';

/**
 * "Email me when it is back" for the sold-out sizes of a product (of the colour chosen, for a product with
 * colours): a size (when there are several) and an address. The store emails once, when the size can be
 * bought again.
 */
export function BackInStock({
  productId,
  colour = null,
  sizes,
}: {
  productId: string;
  /** The colour's name; the wish is for this colour's size. */
  colour?: string | null;
  sizes: string[];
}) {
  const headingId = useId();
  const [size, setSize] = useState(sizes[0] ?? '');
  const [email, setEmail] = useState('');
  const [done, setDone] = useState<string | null>(null);
  // An address typed (or a size chosen) before the page was hydrated is kept.
  const form = useEarlyInput<HTMLFormElement>((element) => {
    const typed = element.querySelector<HTMLInputElement>('input[type="email"]');
    if (typed && typed.value !== email) setEmail(typed.value);
    const picked = element.querySelector('select');
    if (picked && picked.value !== size) setSize(picked.value);
  });
  const chosen = sizes.includes(size) ? size : (sizes[0] ?? '');
  const ask = trpc.catalogue.notifyWhenBack.useMutation({
    onSuccess: () => setDone(`We will email ${email} once when ${variantLabel(colour, chosen)} is back.`),
  });
  if (sizes.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-6 rounded-xl border border-stone-line p-4">
      <h2 id={headingId} className="text-sm font-semibold">
        {sizes.length === 1
          ? `${variantLabel(colour, chosen)} is sold out`
          : colour
            ? `Sold out in your size of ${colour}?`
            : 'Sold out in your size?'}
      </h2>
      <form
        ref={form}
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setDone(null);
          ask.mutate({ productId, ...(colour ? { colour } : {}), size: chosen, email });
        }}
      >
        {sizes.length > 1 ? (
          <div>
            <label htmlFor={`${headingId}-size`} className="block text-sm font-medium">
              Size
            </label>
            <select
              id={`${headingId}-size`}
              value={chosen}
              onChange={(e) => setSize(e.target.value)}
              className="mt-1 rounded-lg border border-stone-line bg-white px-3 py-2 text-sm"
            >
              {sizes.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <TextField
          label="Email me when it is back"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="min-w-56 flex-1"
        />
        <Button type="submit" variant="secondary" disabled={ask.isPending}>
          {ask.isPending ? 'Sending…' : 'Notify me'}
        </Button>
      </form>
      <div aria-live="polite" className="mt-2 text-sm">
        {done ? <p role="status">{done}</p> : null}
        {ask.error ? (
          <p role="alert" className="text-red-800">
            {ask.error.message}
          </p>
        ) : null}
      </div>
    </section>
  );
}
