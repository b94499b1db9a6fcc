import { X } from 'lucide-react';
import { toast, useToasts } from '../../lib/toast';

const styles = {
  success: 'border-emerald-700/30 bg-white text-ink',
  error: 'border-red-700/40 bg-red-50 text-red-900',
  info: 'border-stone-line bg-white text-ink',
} as const;

export function Toaster() {
  const items = useToasts();
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[min(356px,calc(100vw-2rem))] flex-col gap-3"
    >
      {items.map((t) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-lg ${styles[t.kind]}`}
          data-testid="toast"
        >
          <p className="flex-1">{t.message}</p>
          <button
            type="button"
            onClick={() => toast.dismiss(t.id)}
            className="rounded p-0.5 text-muted hover:text-ink"
            aria-label="Dismiss notification"
          >
            <X aria-hidden="true" className="h-4 w-4" />
          </button>
        </div>
      ))}
    </section>
  );
}
