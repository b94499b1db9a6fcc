import { Printer } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { useSiteSettings } from '../../../lib/use-site-settings';
import './packing-slip.css';

/** The day a slip names (the order's payment, an exchange's request). */
export const slipDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** A packing slip's page before its data is in: why it could not load (`failure`), or placeholders. */
export function SlipNotReady({ failure }: { failure: string | null }) {
  if (failure !== null)
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="font-serif text-3xl">Packing slip</h1>
        <p role="alert" className="mt-6 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      </div>
    );
  return (
    <div className="mx-auto max-w-3xl px-4 py-10" aria-busy="true">
      <div className="skeleton h-10 w-64 rounded" aria-hidden="true" />
      <div className="skeleton mt-8 h-48 rounded" aria-hidden="true" />
    </div>
  );
}

/**
 * What every packing slip has around what it lists, the order's and an exchange's alike: the Print button
 * (not printed, packing-slip.css), the store's name, the slip's title and, beside it, its date.
 */
export function SlipFrame({
  title,
  aside,
  testId,
  children,
}: {
  title: string;
  aside: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const storeName = useSiteSettings().data?.storeName ?? '';
  return (
    <article
      className="packing-slip mx-auto max-w-3xl bg-white px-8 py-10 text-ink"
      aria-labelledby="slip-title"
      data-testid={testId}
    >
      <div className="no-print mb-8 flex justify-end">
        <Button onClick={() => window.print()}>
          <Printer aria-hidden="true" className="h-4 w-4" />
          Print
        </Button>
      </div>
      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-ink pb-4">
        <div>
          <p className="font-serif text-xl tracking-[0.1em] uppercase">{storeName}</p>
          <h1 id="slip-title" className="mt-2 font-serif text-3xl">
            {title}
          </h1>
        </div>
        <p className="text-sm">{aside}</p>
      </header>
      {children}
    </article>
  );
}
