import { expect, type Locator, type Page } from '@playwright/test';

type FocusState = { what: string; focusVisible: boolean; indicated: boolean } | null;

/**
 * The focused element and whether a sighted keyboard user can see it: it matches :focus-visible and draws an
 * outline. A control hidden to the eye (a size radio inside its label) counts as marked when its label
 * draws one.
 */
function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const outlined = (e: Element) => {
      const s = getComputedStyle(e);
      return (
        s.outlineStyle !== 'none' &&
        Number.parseFloat(s.outlineWidth) > 0 &&
        s.outlineColor !== 'transparent' &&
        s.outlineColor !== 'rgba(0, 0, 0, 0)'
      );
    };
    const box = el.getBoundingClientRect();
    const hidden = box.width <= 1 || box.height <= 1;
    const shown = hidden ? [...(el.closest('label')?.querySelectorAll('*') ?? [])] : [el];
    return {
      what: el.outerHTML.slice(0, 200),
      focusVisible: el.matches(':focus-visible'),
      indicated: shown.some(outlined),
    };
  });
}

/** Fails unless something has focus and a visible focus indicator. */
export async function expectVisibleFocus(page: Page): Promise<void> {
  const state = await focusState(page);
  expect(state, 'something on the page has focus').not.toBeNull();
  expect(state?.focusVisible && state.indicated, `a visible focus indicator on ${state?.what}`).toBe(true);
}

const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement, undefined, { timeout: 1000 }).catch(() => false);

/**
 * Presses Tab (or Shift+Tab) until the target has focus, checking at every stop on the way that the focused
 * element shows it. Fails when the target is not reached within `max` presses.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { backwards?: boolean; max?: number } = {},
): Promise<void> {
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  const max = options.max ?? 150;
  await expect(target).toBeAttached();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    await expectVisibleFocus(page);
    if (await isFocused(target)) return;
  }
  throw new Error(`${key} pressed ${max} times without reaching ${target}`);
}

/**
 * Tab and then Shift+Tab go round the open dialog and come back to where they started, never leaving it,
 * every stop showing its focus.
 */
export async function expectFocusTrappedIn(page: Page, dialog: Locator): Promise<void> {
  const start = await page.evaluateHandle(() => document.activeElement);
  const inside = () =>
    dialog.evaluate((d) => d.contains(document.activeElement) && d !== document.activeElement);
  expect(await inside(), 'focus starts inside the dialog').toBe(true);
  for (const key of ['Tab', 'Shift+Tab']) {
    let back = false;
    for (let i = 0; i < 200 && !back; i++) {
      await page.keyboard.press(key);
      expect(await inside(), `${key} keeps focus inside the dialog (stop ${i + 1})`).toBe(true);
      await expectVisibleFocus(page);
      back = await start.evaluate((el) => el === document.activeElement);
    }
    expect(back, `${key} comes round to where it started`).toBe(true);
  }
  await start.dispose();
}
