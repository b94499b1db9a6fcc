import { X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useId, useLayoutEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The controls Tab stops at inside a container, in order: shown ones, and of each radio group only one. */
function tabStops(container: HTMLElement): HTMLElement[] {
  const all = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && el.checkVisibility({ visibilityProperty: true }),
  );
  return all.filter((el) => {
    if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name) return true;
    const group = all.filter(
      (o): o is HTMLInputElement => o instanceof HTMLInputElement && o.type === 'radio' && o.name === el.name,
    );
    return el === (group.find((o) => o.checked) ?? group[0]);
  });
}

/**
 * Keeps Tab and Shift+Tab inside a modal dialog (its onKeyDown). The browser makes the page behind a modal
 * dialog inert, but after the dialog's last control it moves focus out to its own toolbar, and a keyboard
 * user lands nowhere: here the last control leads back to the first, and the first back to the last.
 */
export function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
  const dialog = event.currentTarget;
  // A dialog opened inside this one keeps its own focus.
  if (event.key !== 'Tab' || (event.target as Element).closest('dialog') !== dialog) return;
  const stops = tabStops(dialog);
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

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

  // A layout effect, so that its cleanup runs while the dialog is still in the page: a dialog removed by its
  // own Cancel or Save (its owner stops rendering it) would otherwise leave focus on the page's body.
  useLayoutEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    // scroll-pt: a field reached with Shift+Tab scrolls into view below the sticky title bar, not under it.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onKeyDown={keepFocusInside}
      onClose={(e) => {
        // React passes a nested dialog's close event up the component tree: only our own counts.
        if (e.target === e.currentTarget) onCloseRef.current();
      }}
      className={`m-auto max-h-[90vh] scroll-pt-20 overflow-y-auto rounded-2xl bg-white p-0 text-ink shadow-xl backdrop:bg-ink/40 ${wide ? 'w-[min(64rem,calc(100vw-2rem))] max-w-5xl' : 'w-[min(40rem,calc(100vw-2rem))] max-w-2xl'}`}
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
