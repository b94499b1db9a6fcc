/**
 * The one place that knows which parts of a request are secrets: an order page's `token`, a
 * checkout's `session_id`, an invitation or reset link, a two-factor `code`. Every log sink (standard output,
 * the application log table, the audit table) redacts with it before a line is written, so a link that
 * opens a customer's order never sits in a log. A new one-time link needs only its parameter's name here,
 * and most names (anything with "token", "secret", "key" or "code" in it) are covered already.
 *
 * The rule fails safe: a name is a secret when it *contains* one of the words below, in any case, with `_`,
 * `-` or `.` where a space is (`session_id`, `sessionId`), so `access_token`, `checkoutSessionId` and
 * `recoveryCode` are all secrets. The path and every other parameter stay, so a line still says which page
 * and which order it was about.
 */
export const REDACTED = '[redacted]';

/** Secrets wherever they are named: in a query string, a procedure's input, or a log line's own fields. */
const SECRET_WORDS = [
  'token',
  'session id',
  'secret',
  'pass word',
  'passwd',
  'pass phrase',
  'pass code',
  'api key',
  'cookie',
  'authori zation',
  'authori sation',
  'signature',
] as const;

/**
 * Secrets only in what a client sends (a query parameter, a procedure input): the shorter words that a log
 * line's own fields use for other things (an error's `code`, a storage `key`).
 */
const REQUEST_SECRET_WORDS = ['code', 'key', 'otp', 'invite', 'reset', 'session', 'nonce'] as const;

const pattern = (words: readonly string[]) =>
  new RegExp(
    words
      .map((word) => word.replace(/ /g, '[_.-]?'))
      // A response's statusCode is in every access line: no secret, and not worth a closer look.
      .map((word) => (word === 'code' ? '(?<!status[_.-]?)code' : word))
      .join('|'),
    'i',
  );
const anywhere = pattern(SECRET_WORDS);
const inRequests = pattern([...SECRET_WORDS, ...REQUEST_SECRET_WORDS]);

/**
 * Whether a parameter or field name holds a secret. `request` (the default) is for what a client sent:
 * query parameters and procedure inputs; `log` for the fields a log line is made of.
 */
export function isSecretName(name: string, where: 'request' | 'log' = 'request'): boolean {
  return (where === 'log' ? anywhere : inRequests).test(name);
}

const MAX_DEPTH = 8;

/** A procedure's input (or any request data) with the value of every secret name replaced, at any depth. */
export function redactInput(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any input of this store: nothing is kept that was not looked at.
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactInput(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = isSecretName(key) ? REDACTED : redactInput(v, depth + 1);
  }
  return out;
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * tRPC's GET calls carry their input as JSON in the `input` parameter (`?batch=1&input={"0":{...}}`): its
 * secret fields are redacted and the rest is kept, readable; an input that is not JSON is dropped whole.
 */
function redactedInputParameter(value: string): string {
  const text = decoded(value);
  if (text === null) return REDACTED;
  try {
    return JSON.stringify(redactInput(JSON.parse(text) as unknown));
  } catch {
    return REDACTED;
  }
}

/**
 * A request URL as a log may show it: the path as it was, each secret query parameter's value replaced,
 * tRPC's `input` parameter with its secret fields replaced, and any fragment replaced whole.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const bare = hash === -1 ? url : `${url.slice(0, hash)}#${REDACTED}`;
  const q = bare.indexOf('?');
  if (q === -1) return bare;
  const end = hash === -1 ? bare.length : bare.indexOf('#');
  const query = bare
    .slice(q + 1, end)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      const rawName = part.slice(0, eq);
      // An undecodable name may be hiding one: not worth the risk.
      const name = decoded(rawName);
      if (name === null || isSecretName(name)) return `${rawName}=${REDACTED}`;
      if (name === 'input') return `${rawName}=${redactedInputParameter(part.slice(eq + 1))}`;
      return part;
    })
    .join('&');
  // A URL inside a parameter (`?next=%2Forder%2F…%3Ftoken%3D…`) is left to the text rule.
  return redactText(`${bare.slice(0, q)}?${query}${bare.slice(end)}`);
}

/*
 * The last line of defence, run over every log line as text: whatever code logged a URL, an input or an
 * error message that quotes one, a secret named in it is replaced. Three shapes:
 * - a query parameter, plain or URL-encoded: `token=…`, `&session_id=…`, `%26token%3D…`;
 * - a JSON field, plain, escaped inside a string, or URL-encoded: `"token":"…"`, `\"token\":\"…\"`,
 *   `%22token%22%3A%22…%22`; a plain one is one of the line's own fields and is judged as such ('log');
 * - a fragment that looks like a token (`/admin/invite#…`), which is how one-time links are made here.
 * Each pair is found from its separator (`=`, `:`) and its name read backwards, so the work grows with the
 * text's length only, whatever a caller put in a URL; a value that is no secret is searched in turn (a URL
 * inside another's parameter, JSON inside a logged URL).
 */
const MAX_NAME = 100;
const PARAMETER_SEPARATOR = /=|%3[Dd]/g;
const PLAIN_VALUE = /[^&#\s"\\]*/y;
const ENCODED_VALUE = /(?:(?!%26|%23)[^&#\s"\\])*/y;
const FIELD_SEPARATOR = /(\\"|"|%22)(?:\s|%20)*(?::|%3[Aa])(?:\s|%20)*/g;
const FIELD_VALUE = /\\"(?:[^"\\]|\\\\)*\\"|"[^"\\]*"|%22(?:(?!%22)[^"\\&\s])*%22|-?\d[\d.eE+-]*/y;
const TOKEN_FRAGMENT = /#[A-Za-z0-9_-]{20,}/g;

/** Letters, digits and `_ . - [ ]`: what a parameter's or a field's name is made of. */
function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 46 ||
    c === 45 ||
    c === 91 ||
    c === 93
  );
}

/** Where the name that ends at `end` starts (`end` itself when there is none). */
function nameStart(text: string, end: number): number {
  let start = end;
  while (start > 0 && end - start < MAX_NAME && isNameChar(text.charCodeAt(start - 1))) start--;
  return start;
}

/** The match of a sticky pattern at `at`, or ''. */
function valueAt(pattern: RegExp, text: string, at: number): string {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? '';
}

function redactParameters(text: string): string {
  let out = '';
  let from = 0;
  PARAMETER_SEPARATOR.lastIndex = 0;
  for (let m = PARAMETER_SEPARATOR.exec(text); m !== null; m = PARAMETER_SEPARATOR.exec(text)) {
    const sep = m.index;
    const name = text.slice(nameStart(text, sep), sep);
    const valueFrom = sep + m[0].length;
    if (!name || !isSecretName(name)) continue;
    // A `%3D` says the pair sits inside another URL's parameter, where an encoded `&` (%26) ends it.
    const value = valueAt(m[0] === '=' ? PLAIN_VALUE : ENCODED_VALUE, text, valueFrom);
    if (!value || value === REDACTED) continue;
    out += text.slice(from, valueFrom) + REDACTED;
    from = valueFrom + value.length;
    PARAMETER_SEPARATOR.lastIndex = from;
  }
  return out + text.slice(from);
}

function redactFields(text: string): string {
  let out = '';
  let from = 0;
  FIELD_SEPARATOR.lastIndex = 0;
  for (let m = FIELD_SEPARATOR.exec(text); m !== null; m = FIELD_SEPARATOR.exec(text)) {
    const quote = m[1] ?? '"';
    // The name runs back to an opening quote of the same kind (`%22` reads as name characters "22").
    let start = nameStart(text, m.index);
    if (quote === '%22' && text.startsWith('%22', start - 1)) start += 2;
    else if (!text.startsWith(quote, start - quote.length)) continue;
    const name = text.slice(start, m.index);
    if (!name || !isSecretName(name, quote === '"' ? 'log' : 'request')) continue;
    const valueFrom = m.index + m[0].length;
    const value = valueAt(FIELD_VALUE, text, valueFrom);
    const replacement = `${quote}${REDACTED}${quote}`;
    if (!value || value === replacement) continue;
    out += text.slice(from, valueFrom) + replacement;
    from = valueFrom + value.length;
    FIELD_SEPARATOR.lastIndex = from;
  }
  return out + text.slice(from);
}

export function redactText(text: string): string {
  // Most lines name no secret: a name the rules above would judge a secret has a word of the list in it,
  // so a text with none of them holds none (a fragment aside).
  const fragmentFree = !text.includes('#');
  if (fragmentFree && !inRequests.test(text)) return text;
  const clean = redactFields(redactParameters(text));
  return fragmentFree ? clean : clean.replace(TOKEN_FRAGMENT, `#${REDACTED}`);
}
