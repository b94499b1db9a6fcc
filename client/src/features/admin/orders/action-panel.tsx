import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';

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

/** A step form's refusal: the server's words, else a pointer to the highlighted fields. */
export function Failure({ message, fieldsWrong }: { message: string | null; fieldsWrong: boolean }) {
  if (message)
    return (
      <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
        {message}
      </p>
    );
  return fieldsWrong ? (
    <p role="alert" className="text-sm text-red-700">
      Please correct the highlighted fields.
    </p>
  ) : null;
}

/** A step form's Close and submit buttons. */
export function FormButtons({
  onCancel,
  pending,
  label,
  pendingLabel,
  describedBy,
}: {
  onCancel: () => void;
  pending: boolean;
  label: string;
  pendingLabel: string;
  describedBy?: string;
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="ghost" onClick={onCancel}>
        Close
      </Button>
      <Button type="submit" disabled={pending} aria-describedby={describedBy}>
        {pending ? pendingLabel : label}
      </Button>
    </div>
  );
}
