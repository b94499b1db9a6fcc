/** The element that carries the server's query answers into the page (see src/http/ssr.ts). */
export const QUERY_STATE_ID = 'query-state';
