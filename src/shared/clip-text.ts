/**
 * A page description: whitespace collapsed, at most `max` characters with an ellipsis. The server's head
 * (http/seo.ts) and the browser's after a navigation (client/src/lib/use-page-title.ts) use this one, so a
 * page says the same whichever of them wrote it.
 */
export function clipDescription(text: string, max = 300): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
