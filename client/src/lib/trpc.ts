import { QueryCache, QueryClient } from '@tanstack/react-query';
import { httpBatchLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '../../../src/trpc/router';
import { askForFreshProof } from './fresh-proof';
import { paths } from './paths';

export const trpc = createTRPCReact<AppRouter>();

/** What each procedure answers, for components that hold an answer in their own types. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED';
}

/** Forgets who the client thought was signed in; the admin guard then shows the sign-in page. */
export function forgetSession(): void {
  queryClient.setQueriesData({ queryKey: [['auth', 'me']] }, null);
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    // A session that ended (expired, signed out elsewhere) shows up as UNAUTHORIZED on some admin query:
    // forget who we thought was signed in, and the admin guard sends the browser to the sign-in page.
    onError(error) {
      if (isUnauthorized(error)) forgetSession();
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 5 * 60 * 1000,
      retry: (count, error) => !isUnauthorized(error) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});

/**
 * A mutation refused for want of a fresh confirmation (PRECONDITION_FAILED) waits while the admin confirms
 * in the dialog, then goes again, once; cancelled, it fails with the server's message.
 */
const freshProofLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      let retried = false;
      // The caller went away (unmounted, aborted) while the dialog was open: the action is not sent again.
      let stopped = false;
      let current = { unsubscribe: () => {} };
      const run = () => {
        current = next(op).subscribe({
          next: (value) => observer.next(value),
          complete: () => observer.complete(),
          error: (error) => {
            const refused = op.type === 'mutation' && !retried && error.data?.code === 'PRECONDITION_FAILED';
            if (!refused) {
              observer.error(error);
              return;
            }
            retried = true;
            void askForFreshProof().then((confirmed) => {
              if (stopped) return;
              if (confirmed) run();
              else observer.error(error);
            });
          },
        });
      };
      run();
      return () => {
        stopped = true;
        current.unsubscribe();
      };
    });

export const trpcClient = trpc.createClient({
  links: [freshProofLink, httpBatchLink({ url: paths.trpc(), maxURLLength: 2000, maxItems: 10 })],
});
