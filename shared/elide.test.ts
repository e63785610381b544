import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elided } from './elide';

describe('elided', () => {
  it('keeps a text within its size whole', () => {
    expect(elided('rate_limited', 120)).toBe('rate_limited');
    expect(elided('x'.repeat(120), 120)).toBe('x'.repeat(120));
  });

  it('keeps the start and the end of a longer one, and says how many characters it leaves out', () => {
    const text = `${'a'.repeat(500)}${'b'.repeat(1_000_000)}${'c'.repeat(500)}`;
    const shown = elided(text, 120);
    expect(shown).toMatch(/^a+… 1,000,\d{3} characters not shown …c+$/);
    expect(shown.length).toBeLessThanOrEqual(120);
    const left = Number(/… ([\d,]+) characters/.exec(shown)?.[1]?.replace(/,/g, ''));
    expect(shown.length - shown.match(/… [\d,]+ characters not shown …/)![0].length + left).toBe(text.length);
  });

  it('is never longer than its size, never cuts a character in two, and leaves out only what it counts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.integer({ min: 60, max: 2000 }), (text, max) => {
        const shown = elided(text, max);
        if (text.length <= max) return shown === text;
        const note = /… ([\d,]+) characters not shown …/.exec(shown);
        if (!note || shown.length > max) return false;
        const [head, tail] = [shown.slice(0, note.index), shown.slice(note.index + note[0].length)];
        const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
        return text.startsWith(head) && text.endsWith(tail) && !lone.test(shown) && head.length + tail.length + Number(note[1]?.replace(/,/g, '')) === text.length;
      }),
      { numRuns: 500 },
    );
  });
});
