import { CLIENT_ERROR_LIMITS } from '@shared/telemetry-limits';
import { paths } from './paths';

/** At most this many reports per page load; the server also limits each address to 20 a minute. */
const MAX_REPORTS_PER_PAGE = 5;

let installed = false;
let sent = 0;
let reporting = false;
const seen = new Set<string>();

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

function describe(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error) return { message: reason.message || reason.name, stack: reason.stack };
  if (typeof reason === 'string') return { message: reason };
  try {
    return { message: JSON.stringify(reason) ?? String(reason) };
  } catch {
    return { message: String(reason) };
  }
}

/** Sends one report; never throws, never reports its own failure (that could loop). */
function send(kind: 'error' | 'unhandledrejection', reason: unknown): void {
  if (reporting || sent >= MAX_REPORTS_PER_PAGE) return;
  try {
    reporting = true;
    const { message, stack } = describe(reason);
    const text = clip(message.trim() || 'Unknown error', CLIENT_ERROR_LIMITS.message);
    const key = `${kind}|${text}|${stack?.split('\n')[1] ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    sent += 1;
    const body = JSON.stringify({
      kind,
      message: text,
      stack: stack ? clip(stack.split('\n').slice(0, 15).join('\n'), CLIENT_ERROR_LIMITS.stack) : undefined,
      route: clip(window.location.pathname, CLIENT_ERROR_LIMITS.route),
      userAgent: clip(navigator.userAgent, CLIENT_ERROR_LIMITS.userAgent),
    });
    void fetch(paths.errorReport(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // Reporting must never break the page.
  } finally {
    reporting = false;
  }
}

/** Reports uncaught errors and unhandled promise rejections to the server's application log. */
export function installErrorReporter(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('error', (e) => {
    // Failed <img>/<script> loads arrive here without an error object; they are not script errors.
    if (!(e instanceof ErrorEvent)) return;
    send('error', e.error ?? e.message);
  });
  window.addEventListener('unhandledrejection', (e) => send('unhandledrejection', e.reason));
}
