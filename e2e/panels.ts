// Bounding-box checks of the window's layout, shared by the specs that open a view at a given size.
import { expect, type Locator, type Page } from '@playwright/test';

export type Box = { x: number; y: number; width: number; height: number };

export const overlap = (a: Box, b: Box) => a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

export async function boxes(locator: Locator): Promise<Box[]> {
  return (await Promise.all((await locator.all()).map((l) => l.boundingBox()))).filter((b): b is Box => b !== null);
}

/** Nothing the locator finds reaches past the window's right edge. */
export async function inWindow(page: Page, locator: Locator): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  for (const box of await boxes(locator)) expect(box.x + box.width, `a box ends at ${box.x + box.width}, past ${width}`).toBeLessThanOrEqual(width + 1);
}

/**
 * An Episodes tab with a row open: the table beside what the row holds (events, frames, facts), not under
 * it, both in the window, each panel scrolling in one place at most.
 */
export async function episodePanelsFit(page: Page, what: string): Promise<void> {
  const table = page.locator('.episode-table');
  const side = page.locator('.episode-side');
  await expect(side).toBeVisible();
  expect(overlap((await table.boundingBox()) as Box, (await side.boundingBox()) as Box), `${what}: the table and the side panel overlap`).toBe(false);
  await inWindow(page, page.locator('.episode-side, .episode-table, .episodes [role="columnheader"]'));
  expect(await side.evaluate((panel) => panel.scrollWidth - panel.clientWidth), `${what}: the side panel is cut at its edge`).toBeLessThanOrEqual(1);
  const height = page.viewportSize()?.height ?? 0;
  for (const panel of [table, side]) {
    const box = (await panel.boundingBox()) as Box;
    expect(box.y + box.height, `${what}: a panel ends past the window's bottom`).toBeLessThanOrEqual(height + 1);
    const scrolling = await panel.evaluate((root) =>
      [root, ...root.querySelectorAll('*')].filter((el) => /auto|scroll/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1).map((el) => `${el.className} ${el.scrollHeight}>${el.clientHeight}`),
    );
    expect(scrolling.length, `${what}: one panel scrolls in ${scrolling.join(', ')}`).toBeLessThanOrEqual(1);
  }
}
