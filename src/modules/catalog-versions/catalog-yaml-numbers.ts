import yaml from 'js-yaml';

/**
 * Numbers in a catalogue file, kept exact. A price is money: js-yaml reads `90.00` as the double 90 and
 * `12345678901234.57` as 12345678901234.57 rounded, and dumps a string price quoted ('89.99'), where the
 * original format has a number. So the reader keeps each number scalar's own text (YamlNumber), which the
 * price is read from digit by digit, and the writer writes a price's decimal text as a plain number scalar,
 * with exactly its currency's decimals (90.00, 1500, 12.345).
 */

/** A number scalar as the file wrote it, and the double js-yaml would have made of it. */
export class YamlNumber {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}
}

/** js-yaml's own scalar types: exported at run time (js-yaml 4), though @types/js-yaml leaves them out. */
const coreTypes = (yaml as unknown as { types: Record<'int' | 'float' | 'null' | 'bool', yaml.Type> }).types;
const coreInt = coreTypes.int;
const coreFloat = coreTypes.float;

const exactInt = new yaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string) => coreInt.resolve(data),
  construct: (data: string) => new YamlNumber(data, coreInt.construct(data) as number),
});

const exactFloat = new yaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string) => coreFloat.resolve(data),
  construct: (data: string) => new YamlNumber(data, coreFloat.construct(data) as number),
});

/** The core schema (null, bool, int, float, no custom tags), its numbers read as YamlNumber. */
export const EXACT_READ_SCHEMA = yaml.FAILSAFE_SCHEMA.extend({
  implicit: [coreTypes.null, coreTypes.bool, exactInt, exactFloat],
});

/** Every YamlNumber in a parsed tree replaced by its double, for the fields that are not money. */
export function plainNumbers(value: unknown): unknown {
  if (value instanceof YamlNumber) return value.value;
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainNumbers(v);
    return out;
  }
  return value;
}

/**
 * A YAML number's text as plain decimal text ("+1.50" -> "1.50", ".5" -> "0.5"), or null when it is not a
 * plain non-negative decimal (1e3, 0x10, .inf, a negative amount): a price is written as a plain decimal.
 */
export function decimalTextOf(text: string): string | null {
  const unsigned = text.startsWith('+') ? text.slice(1) : text;
  const whole = unsigned.startsWith('.') ? `0${unsigned}` : unsigned;
  return /^\d+(\.\d*)?$/.test(whole) ? whole.replace(/\.$/, '') : null;
}

/** A decimal text the writer puts into the file as a plain number scalar: the currency's exact decimals. */
export class DecimalText {
  constructor(readonly text: string) {}
}

// A tag of its own: one of float's would replace js-yaml's float type (a schema keeps one type per tag).
const decimalNumber = new yaml.Type('tag:storefront.local,2026:decimal', {
  kind: 'scalar',
  instanceOf: DecimalText,
  // Only for writing: the dumper asks every implicit type whether a string would read as it (and quotes it then).
  resolve: () => false,
  represent: (value: object) => (value as DecimalText).text,
});

/** The default schema with DecimalText first, so a price goes out as `89.99`, `90.00`, `1500`, `12.345`. */
export const DUMP_SCHEMA = yaml.DEFAULT_SCHEMA.extend({ implicit: [decimalNumber] });

/** Decimal text that reads back as a YAML number of exactly that text: "89.99", "1500", never "1e3" or "". */
export const isPlainDecimal = (text: string): boolean => /^\d+(\.\d+)?$/.test(text);
