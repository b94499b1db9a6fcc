import { type LineProblem, PROBLEM_TEXT } from '@shared/checkout';

/**
 * What the cart and checkout say about a line's problem. Too few left names how many can still be bought
 * ("Only 2 left in this size"); every other problem uses the shared text.
 */
export function problemText(line: { problem: LineProblem; left: number | null }): string {
  if (line.problem === 'not_enough_stock' && line.left !== null && line.left > 0)
    return `Only ${line.left} left in this size. Please lower the quantity.`;
  return PROBLEM_TEXT[line.problem];
}
