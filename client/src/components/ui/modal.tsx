import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal dialog on the native <dialog>: focus moves in and is trapped, Escape closes, and focus returns
 * to what opened it. Rendered only while open.
 */
export function Modal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={(e) => {
        // React passes a nested dialog's close event up the component tree: only our own counts.
        if (e.target === e.currentTarget) onCloseRef.current();
      }}
      className={`m-auto max-h-[90vh] overflow-y-auto rounded-2xl bg-white p-0 text-ink shadow-xl backdrop:bg-ink/40 ${wide ? 'w-[min(64rem,calc(100vw-2rem))] max-w-5xl' : 'w-[min(40rem,calc(100vw-2rem))] max-w-2xl'}`}
    >
      <div className="sticky top-0 z-10 flex items-center justify-between border-b border-stone-line bg-white px-6 py-4">
        <h2 id={titleId} className="font-serif text-2xl">
          {title}
        </h2>
        <button
          type="button"
          onClick={() => ref.current?.close()}
          className="rounded-full p-2 hover:bg-sand"
          aria-label="Close"
        >
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
      </div>
      <div className="px-6 py-5">{children}</div>
    </dialog>
  );
}
