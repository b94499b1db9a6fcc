import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';

/**
 * "Cancel this return" asks first: a cancelled return cannot be asked for again if the order has used its
 * requests, and a held replacement goes back on sale. A modal dialog (focus moves in to "Keep the return",
 * the safe choice, Escape closes it and focus goes back to the button that opened it).
 */
export function CancelReturnDialog({
  summary,
  onConfirm,
  onClose,
}: {
  /** What is being cancelled, in the shopper's words ("2 × Kurta, asked 3 December"). */
  summary: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const buttons = useRef<HTMLDivElement>(null);
  // After the dialog's own opening (showModal focuses its first control, the Close button): the safe choice.
  useEffect(() => {
    buttons.current?.querySelector('button')?.focus();
  }, []);
  return (
    <Modal title="Cancel this return?" onClose={onClose}>
      <div className="space-y-4 text-sm">
        <p>{summary}</p>
        <p>The shop will no longer expect your parcel, and any replacement held for you goes back on sale.</p>
        <div ref={buttons} className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Keep the return
          </Button>
          <Button onClick={onConfirm} data-testid="confirm-cancel-return">
            Yes, cancel the return
          </Button>
        </div>
      </div>
    </Modal>
  );
}
