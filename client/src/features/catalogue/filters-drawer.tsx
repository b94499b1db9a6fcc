import { SlidersHorizontal, X } from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { keepFocusInside } from '../../components/ui/modal';

/** Small screens: the filters slide in from the side in a native modal dialog (focus trapped, Escape closes). */
export function FiltersDrawer({
  children,
  resultCount,
  active,
}: {
  children: ReactNode;
  /** "24 results", "1,000+ results"; null while unknown. */
  resultCount: string | null;
  active: number;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // The options are built only while the drawer is open: a closed drawer would double the page's controls
  // (the wide-screen panel has the same ones) and the work of every render.
  const [open, setOpen] = useState(false);
  const close = () => dialog.current?.close();
  return (
    <>
      <Button
        variant="secondary"
        className="lg:hidden"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
        aria-haspopup="dialog"
      >
        <SlidersHorizontal aria-hidden="true" className="h-4 w-4" />
        Filters{active > 0 ? ` (${active})` : ''}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby="filters-title"
        onKeyDown={keepFocusInside}
        onClose={(e) => {
          if (e.target === e.currentTarget) setOpen(false);
        }}
        onClick={(e) => {
          // A click on the backdrop (the dialog element itself, outside its panel) closes it.
          if (e.target === dialog.current) close();
        }}
        className="fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-80 max-w-[90vw] bg-ivory p-0 text-ink shadow-xl backdrop:bg-ink/40"
      >
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between border-b border-stone-line px-5 py-4">
            <h2 id="filters-title" className="font-serif text-xl">
              Filters
            </h2>
            <button
              type="button"
              onClick={close}
              className="rounded-full p-2 hover:bg-sand"
              aria-label="Close filters"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </button>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-5">{open ? children : null}</div>
          <div className="border-t border-stone-line p-4">
            <Button className="w-full" onClick={close}>
              {resultCount === null ? 'Show results' : `Show ${resultCount}`}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
