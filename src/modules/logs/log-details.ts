import { isSecretName, REDACTED, redactText } from '../../core/secret-redaction.js';
import type { LogLevel } from '../../db/database.js';

/** Keys whose values never reach the log table (matched anywhere in the key, any case). */
const SECRET_KEY = /pass(word|wd)?|cookie|authori[sz]ation|secret|token|key|card|cvc|iban|signature/i;
/** Values that look like credentials, whatever key they sit under. */
const SECRET_VALUE =
  /\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9+/=]+|\bstore_session=[^;\s"]+/g;

export const MAX_DETAILS_BYTES = 4096;
export const MAX_MESSAGE_LENGTH = 500;
const MAX_STRING = 1000;
const MAX_ITEMS = 50;
const MAX_DEPTH = 5;

export { REDACTED };

function redactString(value: string, max = MAX_STRING): string {
  const clean = redactText(value).replace(SECRET_VALUE, REDACTED);
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function sanitize(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') return redactString(value);
  if (typeof value === 'bigint') return value.toString();
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => sanitize(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`);
    return items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    let count = 0;
    for (const [key, v] of Object.entries(value)) {
      if (count++ >= MAX_ITEMS) break;
      out[key] = SECRET_KEY.test(key) || isSecretName(key, 'log') ? REDACTED : sanitize(v, depth + 1);
    }
    return out;
  }
  return undefined;
}

/** Redacts secret-looking keys and values and limits the JSON to 4 KB; the result is valid JSON text. */
export function detailsJson(details: Record<string, unknown>): string {
  const json = JSON.stringify(sanitize(details, 0) ?? {});
  if (json.length <= MAX_DETAILS_BYTES && Buffer.byteLength(json) <= MAX_DETAILS_BYTES) return json;
  return JSON.stringify({ truncated: true, preview: json.slice(0, MAX_DETAILS_BYTES / 2) });
}

export function cleanMessage(message: string): string {
  return redactString(message.replace(/\s+/g, ' ').trim(), MAX_MESSAGE_LENGTH) || '(no message)';
}

/** 'product.created' -> 'product'; anything odd -> 'server'. */
export function sourceOfEvent(event: string | undefined): string {
  const first = event?.split('.')[0]?.toLowerCase() ?? '';
  return /^[a-z][a-z0-9_-]{0,31}$/.test(first) ? first : 'server';
}

/** pino's numeric levels to the log table's three. */
export function levelOf(pinoLevel: number): LogLevel {
  return pinoLevel >= 50 ? 'error' : pinoLevel >= 40 ? 'warning' : 'info';
}
