import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** What the store aims at: WCAG 2.2 level AA (with the A and AA rules of the earlier versions it builds on). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe on the page once its CSS transitions have ended, and fails with one readable block per rule broken: the rule, its impact,
 * where it failed and axe's own advice, so a failure can be fixed without rerunning anything.
 */
export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  // What is judged is the page at rest: a button just enabled fades to its colours over 150 ms, and a
  // contrast measured halfway is neither its old nor its new state.
  await page.evaluate(() =>
    Promise.allSettled(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const summary = violations.map((v) =>
    [
      `${v.id} (${v.impact ?? 'unknown impact'}): ${v.help}`,
      ...v.nodes.map(
        (n) => `  at ${n.target.join(' ')}\n    ${(n.failureSummary ?? '').replace(/\n/g, '\n    ')}`,
      ),
    ].join('\n'),
  );
  expect(summary, `axe found problems on ${screen}:\n\n${summary.join('\n\n')}\n`).toEqual([]);
}
