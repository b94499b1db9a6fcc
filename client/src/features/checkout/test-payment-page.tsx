import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { paths } from '../../lib/paths';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

const DELAY_MS = 2000;

/** Demo payment mode: completes the order after two seconds. No card, no money. */
export function TestPaymentPage() {
  usePageTitle('Test Payment Processing');
  const sessionId = new URLSearchParams(useSearch()).get('session_id') ?? '';
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const complete = trpc.checkout.completeTestPayment.useMutation();
  // The latest mutate, without making the timer below restart on every render.
  const mutate = useRef(complete.mutate);
  mutate.current = complete.mutate;

  useEffect(() => {
    if (!sessionId) return;
    const timer = setTimeout(() => {
      mutate.current(
        { sessionId },
        {
          onSuccess() {
            toast.success('Test payment completed successfully!');
            navigate(paths.checkoutSuccess(sessionId), { replace: true });
          },
          onError(err) {
            setError(err.message);
          },
        },
      );
    }, DELAY_MS);
    return () => clearTimeout(timer);
  }, [sessionId, navigate]);

  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="font-serif text-3xl">Test Payment Processing</h1>
      <p className="mt-4 rounded-xl bg-amber-50 p-4 text-sm text-amber-900">
        This store is in demo payment mode: no card is charged and no money moves.
      </p>
      {error || !sessionId ? (
        <p role="alert" className="mt-6 text-red-800">
          {error ?? 'This payment link is incomplete.'}
        </p>
      ) : (
        <div className="mt-8 space-y-3" aria-hidden="true">
          <div className="skeleton mx-auto h-5 w-2/3 rounded" />
          <div className="skeleton mx-auto h-5 w-1/2 rounded" />
          <div className="skeleton mx-auto h-10 w-40 rounded-full" />
        </div>
      )}
    </div>
  );
}
