import { type LineProblem, PROBLEM_TEXT } from '@shared/checkout';

/**
 * What the cart and checkout say about a line's problem. Too few left names how many can still be bought
 * ("Only 2 left in this size"); a colour no longer offered is named ("Teal is no longer offered"), as the
 * line may be one of several colours of one product; every other problem uses the shared text.
 */
export function problemText(line: {
  problem: LineProblem;
  left: number | null;
  colour?: string | null;
}): string {
  if (line.problem === 'not_enough_stock' && line.left !== null && line.left > 0)
    return `Only ${line.left} left in this size. Please lower the quantity.`;
  if (line.problem === 'colour_unavailable' && line.colour)
    return `${line.colour} is no longer offered. Please pick another colour or remove it.`;
  return PROBLEM_TEXT[line.problem];
}

/** Problems the shopper settles on the product's page, by choosing its colour there. */
export function needsColourChoice(problem: LineProblem | null | undefined): boolean {
  return problem === 'colour_required' || problem === 'colour_unavailable';
}
