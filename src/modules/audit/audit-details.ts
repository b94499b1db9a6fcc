import { isSecretName, redactText } from '../../core/secret-redaction.js';

/**
 * What an audit entry keeps of a request's input: everything but secrets (passwords, keys, tokens, codes:
 * the names core/secret-redaction.ts knows, and a link's secret inside a string), strings cut at 500
 * characters, at most 50 keys per object and 50 items per list, 6 levels deep. Enough to tell what was
 * asked; never a credential, never a whole uploaded file.
 */
const MAX_STRING = 500;
const MAX_ITEMS = 50;
const MAX_DEPTH = 6;

export function auditInput(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const clean = redactText(value);
    return clean.length > MAX_STRING ? `${clean.slice(0, MAX_STRING)}…` : clean;
  }
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => auditInput(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value).slice(0, MAX_ITEMS)) {
      out[key] = isSecretName(key) ? '[hidden]' : auditInput(v, depth + 1);
    }
    return out;
  }
  return undefined;
}

/** What an input names as the thing changed: its id (a product, an order, a version, an email). */
export function auditTarget(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null;
  const id = (input as Record<string, unknown>).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id).slice(0, 200) : null;
}
