import type { RenderedPage, ServerQuery } from '@shared/ssr-contract';
import { dehydrate, type Query, QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from './app/app';
import { preloadPage } from './app/app-routes';
import { Providers } from './app/providers';

type TrpcKeyMeta = { input?: unknown; type?: 'query' | 'infinite' };

function renderTree(client: QueryClient, pathname: string, search: string): string {
  return renderToString(
    <Providers client={client}>
      <Router ssrPath={pathname} ssrSearch={search}>
        <App />
      </Router>
    </Providers>,
  );
}

/**
 * Renders a storefront page in passes: a render finds which queries the page asks for (the same hooks the
 * browser runs, so nothing here repeats their inputs), the server answers those it may, and the next render
 * uses the answers. The answers go to the browser with the markup, so hydration needs no fetch.
 */
export async function renderPage(
  pathname: string,
  search: string,
  query: ServerQuery,
): Promise<RenderedPage> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5 * 60 * 1000 } } });
  const asked = new Set<string>();
  // A page with its own chunk is rendered whole only once the chunk is loaded (else its fallback, nothing).
  await preloadPage(pathname);
  let html = renderTree(client, pathname, search);
  // Answers can reveal more of the page (the product, then its related products): render again until no new
  // query appears, a few times at most.
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fresh = client
      .getQueryCache()
      .getAll()
      .filter((q) => !asked.has(q.queryHash));
    if (fresh.length === 0) break;
    for (const q of fresh) asked.add(q.queryHash);
    await Promise.all(fresh.map((q) => answer(client, q.queryKey, query)));
    html = renderTree(client, pathname, search);
  }
  return { html, state: dehydrate(client, { shouldDehydrateQuery: keepForBrowser }) };
}

/** The answers, and the "not found" errors: the browser's first render must say what the server's said. */
function keepForBrowser(q: Query): boolean {
  return q.state.status === 'success' || (q.state.status === 'error' && isNotFound(q.state.error));
}

function isNotFound(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  // On the server a TRPCError ({ code }); in the browser's cache the shape tRPC's client gives ({ data: { code } }).
  const { code, data } = err as { code?: unknown; data?: { code?: unknown } };
  return code === 'NOT_FOUND' || data?.code === 'NOT_FOUND';
}

const MAX_PASSES = 3;

async function answer(client: QueryClient, key: readonly unknown[], query: ServerQuery): Promise<void> {
  const [segments, meta] = key as [unknown, TrpcKeyMeta | undefined];
  if (!Array.isArray(segments)) return;
  try {
    const data = await query(segments.join('.'), meta?.input);
    if (data === undefined) return;
    client.setQueryData(key, meta?.type === 'infinite' ? { pages: [data], pageParams: [null] } : data);
  } catch (err) {
    // A missing product is rendered as missing (with the page's 404 status), so the page reads right
    // without JavaScript. Anything else refused: the browser asks and shows the error as it always does.
    if (!isNotFound(err)) return;
    const message = err instanceof Error ? err.message : 'Not found';
    client
      .getQueryCache()
      .find({ queryKey: key, exact: true })
      ?.setState({
        status: 'error',
        error: Object.assign(new Error(message), { data: { code: 'NOT_FOUND' } }),
        fetchStatus: 'idle',
      });
  }
}
