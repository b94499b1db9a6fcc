/** The shortest word a search looks for (decision 0024): a single character is not searched. */
export const MIN_WORD_LENGTH = 2;

/** Whether what a shopper typed has letters or digits but no word long enough to be searched. */
export function tooShortToSearch(text: string): boolean {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 0 && words.every((w) => [...w].length < MIN_WORD_LENGTH);
}
