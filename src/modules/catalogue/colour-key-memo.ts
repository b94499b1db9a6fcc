import { colourKey } from '../../shared/colours.js';

/**
 * A colour name's key, remembered: a listing's cards name the same few colours over and over, and folding
 * each (Unicode normalisation) for every card read and every colour filter is work for nothing.
 */
export function colourKeyOf(name: string): string {
  let key = colourKeys.get(name);
  if (key === undefined) {
    // Bounded: names are the owner's, but a catalogue import could bring many.
    if (colourKeys.size >= 10_000) colourKeys.clear();
    key = colourKey(name);
    colourKeys.set(name, key);
  }
  return key;
}
const colourKeys = new Map<string, string>();
