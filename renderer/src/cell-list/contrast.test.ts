import { describe, expect, it } from 'vitest';
import css from '../styles.css?raw';
import { STATE_LOOK } from './states';

/** The custom properties a block of the stylesheet sets. */
function vars(block: string): Record<string, string> {
  return Object.fromEntries([...block.matchAll(/--([a-z]+):\s*(#[0-9a-f]{6})/g)].map((m) => [m[1] as string, m[2] as string]));
}

/** WCAG 2 relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number);
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('state pills in both themes', () => {
  const dark = vars(css.slice(0, css.indexOf('@media (prefers-color-scheme: light)')));
  const light = { ...dark, ...vars(css.slice(css.indexOf('@media (prefers-color-scheme: light)'), css.indexOf('* { box-sizing'))) };
  for (const [name, theme] of [['dark', dark], ['light', light]] as const) {
    it(`${name}: every state's word reads at 4.5:1 or more on the page and on a panel`, () => {
      expect(Object.keys(theme)).toEqual(expect.arrayContaining(['bg', 'panel', 'grey', 'stopped']));
      for (const [state, look] of Object.entries(STATE_LOOK)) {
        for (const ground of ['bg', 'panel']) {
          expect(contrast(theme[look.tone] as string, theme[ground] as string), `${state} on ${ground}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    });
  }

  it('gives finished and stopped, alike before, colours of their own', () => {
    expect(STATE_LOOK.finished.tone).not.toBe(STATE_LOOK.stopped.tone);
  });
});
