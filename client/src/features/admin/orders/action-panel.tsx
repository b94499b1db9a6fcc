import { type ReactNode, useEffect, useRef } from 'react';

/** The message of a failed call, as the forms show it in their alert. */
export function failureMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The server refused the change';
}

/** The first field of a panel takes focus when it opens, so a keyboard user lands in the form. */
export function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current
      ?.querySelector<HTMLElement>(
        'input:not([disabled]), select:not([disabled]), textarea, button:not([disabled])',
      )
      ?.focus();
  }, []);
  return ref;
}

/** One opened action of the order dialog: its small form under a heading of its own. */
export function ActionPanel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="rounded-xl border border-stone-line p-4">
      <h4 id={`${id}-title`} className="font-medium">
        {title}
      </h4>
      <div className="mt-3">{children}</div>
    </section>
  );
}
