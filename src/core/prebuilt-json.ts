/**
 * JSON written once for values that are sent again and again (a product card is in many listings), so an
 * answer is put together from bytes already encoded instead of serialised and encoded afresh each time. A
 * listing of 24 cards spent about 30 µs in JSON.stringify and 15 µs turning the string into UTF-8 (titles
 * hold non-ASCII dashes, which make the whole string two-byte), for every new filter a shopper tried.
 *
 * Values are frozen when their JSON is kept: a change after it would make the bytes lie.
 */
const written = new WeakMap<object, Buffer | JsonParts>();
/** A value's JSON as bytes another value's JSON starts with, and the text after them. */
type JsonParts = { head: Buffer; tail: string };
/** Containers worth walking because a value with kept JSON may be inside (a page of cards). */
const walked = new WeakSet<object>();

/** Keeps the JSON of `value` (as JSON.stringify writes it) for `toJsonBuffer`, and freezes it. */
export function keepJson<T extends object>(value: T): T {
  const json: string | undefined = JSON.stringify(value);
  if (json === undefined) throw new TypeError('keepJson: the value has no JSON');
  // A memory of its own, not a slice of Node's shared 8 kB pool, which a kept card would otherwise hold
  // whole, with whatever short-lived buffers were cut from it.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
  bytes.write(json);
  written.set(value, bytes);
  return deepFreeze(value);
}

/**
 * Keeps the JSON of `value`, which is `base`'s (kept) with more members after them, whose JSON is `extra`
 * (an object's): for a value made of another and a few fields of its own, whose whole JSON.stringify would
 * repeat the bulk each time. Nothing is copied: the value's JSON is base's bytes but their closing brace,
 * then extra's members. The caller answers for that being the value's JSON (its keys may come in another
 * order). A base without kept JSON leaves `value` as it is (JSON.stringify writes it).
 */
export function keepJsonWith<T extends object>(value: T, base: object, extra: string): T {
  const kept = written.get(base);
  if (!Buffer.isBuffer(kept) || !extra.startsWith('{')) return value;
  const members = extra.slice(1, -1);
  if (members.length === 0) {
    written.set(value, kept);
  } else {
    // `{}` has no member to put a comma after.
    const head = kept.subarray(0, kept.length - 1);
    written.set(value, { head, tail: `${head.length > 1 ? ',' : ''}${members}}` });
  }
  return deepFreeze(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze(Reflect.get(value, key));
  return Object.freeze(value);
}

/**
 * Marks an array or a plain object (no toJSON of its own) whose members may have kept JSON; anything else
 * `toJsonBuffer` hands to JSON.stringify whole, which is faster than walking it here. Its other members are
 * written as JSON.stringify writes each on its own (a member's toJSON is given '' for its key).
 */
export function holdsKeptJson<T extends object>(value: T): T {
  walked.add(value);
  return value;
}

/** A value `toJsonBuffer` writes itself: a kept one, or a marked container. */
function isOurs(v: unknown): v is object {
  return typeof v === 'object' && v !== null && (written.has(v) || walked.has(v));
}

/**
 * `JSON.stringify(value)` as UTF-8 bytes, with kept JSON used where there is some. A fresh buffer: the kept
 * ones are never handed out themselves.
 */
export function toJsonBuffer(value: unknown): Buffer {
  // Text runs and kept buffers in order, written into one buffer at the end: a page of cards has a comma
  // between each two, and a Buffer per comma (then a concat of them all) cost more than the cards' bytes.
  const parts: Array<string | Buffer> = [];
  let text = '';
  const write = (v: object): void => {
    const kept = written.get(v);
    if (kept) {
      if (text.length > 0) parts.push(text);
      if (Buffer.isBuffer(kept)) {
        parts.push(kept);
        text = '';
      } else {
        parts.push(kept.head);
        text = kept.tail;
      }
      return;
    }
    if (Array.isArray(v)) {
      text += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) text += ',';
        const item: unknown = v[i];
        // As JSON.stringify: what has no JSON (undefined, a function, a toJSON giving undefined) is null.
        if (isOurs(item)) write(item);
        else text += JSON.stringify(item) ?? 'null';
      }
      text += ']';
      return;
    }
    text += '{';
    let first = true;
    for (const key of Object.keys(v)) {
      const member: unknown = Reflect.get(v, key);
      // Written before its key, so that a member without JSON is left out, as JSON.stringify leaves it.
      const json = isOurs(member) ? null : JSON.stringify(member);
      if (json === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (json === null) write(member as object);
      else text += json;
    }
    text += '}';
  };
  if (isOurs(value)) write(value);
  else text += JSON.stringify(value) ?? 'null';
  if (text.length > 0) parts.push(text);
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += typeof part === 'string' ? out.write(part, at) : part.copy(out, at);
  return out;
}
