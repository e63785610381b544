import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../runners/testing';
import type { CellSummary } from '../shared/model';
import { loadPrices, priced } from './prices';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const row = (model: string | null, tokens: Partial<CellSummary['tokens']> = {}) =>
  ({ labels: { harness: null, model, condition: null, effort: null }, tokens: { input: 1_200_000, cached_input: 800_000, output: 90_000, reasoning: 40_000, ...tokens }, cost_usd_estimate: 99, cost_source: null }) as Pick<CellSummary, 'tokens' | 'labels' | 'cost_usd_estimate' | 'cost_source'>;

describe('list prices', () => {
  it("estimates as seed 001 says: (input - cached) x input + cached x cached_input + output x output, naming the price", async () => {
    writeFileSync(join(tmp.path, 'shipped.yml'), 'openai/gpt-6: {input: 2.0, cached_input: 0.5, output: 8.0, source: "list price, 2026-11-01"}\n');
    const prices = await loadPrices(join(tmp.path, 'shipped.yml'), tmp.path);
    // (400,000 x 2 + 800,000 x 0.5 + 90,000 x 8) / 1e6 = 0.8 + 0.4 + 0.72
    const cost = priced(row('openai/gpt-6'), prices);
    expect(cost.cost_usd_estimate).toBeCloseTo(1.92, 12);
    expect(cost.cost_source).toBe('prices.yml: openai/gpt-6, list price, 2026-11-01');
    // A bare model name that one entry names is that entry.
    expect(priced(row('gpt-6'), prices).cost_usd_estimate).toBeCloseTo(1.92, 12);
  });

  it("lets the user's file win, and says why there is no estimate rather than showing a runner's figure", async () => {
    writeFileSync(join(tmp.path, 'shipped.yml'), 'openai/gpt-6: {input: 2.0, cached_input: 0.5, output: 8.0, source: shipped}\n');
    writeFileSync(join(tmp.path, 'prices.yml'), 'openai/gpt-6: {input: 1.0, output: 4.0, source: "our contract, 2026-11"}\n');
    const prices = await loadPrices(join(tmp.path, 'shipped.yml'), tmp.path);
    // No cached price: cached tokens cost the input price.
    expect(priced(row('openai/gpt-6'), prices).cost_usd_estimate).toBeCloseTo((1_200_000 * 1 + 90_000 * 4) / 1e6, 12);
    expect(priced(row('anthropic/claude-opus-5-5'), prices)).toMatchObject({ cost_usd_estimate: null, cost_source: 'no list price for anthropic/claude-opus-5-5 in prices.yml' });
    expect(priced(row('openai/gpt-6', { input: null }), prices)).toMatchObject({ cost_usd_estimate: null, cost_source: 'no token counts in the files' });
    expect(priced(row(null), prices)).toMatchObject({ cost_usd_estimate: null, cost_source: 'no model named in the files' });
  });

  it('names the file and line of a prices.yml that does not parse, and prices nothing from it', async () => {
    writeFileSync(join(tmp.path, 'shipped.yml'), '');
    writeFileSync(join(tmp.path, 'prices.yml'), 'openai/gpt-6: {input: 2.0, output: 8.0\nother: [\n');
    const prices = await loadPrices(join(tmp.path, 'shipped.yml'), tmp.path);
    expect(prices.problems).toEqual([expect.objectContaining({ file: join(tmp.path, 'prices.yml'), line: expect.any(Number), message: expect.stringMatching(/^not valid YAML: .*its prices are not used$/) })]);
    expect(priced(row('openai/gpt-6'), prices).cost_usd_estimate).toBeNull();
  });

  it('refuses an entry without its rates, naming its line', async () => {
    writeFileSync(join(tmp.path, 'shipped.yml'), 'a/ok: {input: 1, output: 2}\na/bad: {input: cheap}\n');
    const prices = await loadPrices(join(tmp.path, 'shipped.yml'), tmp.path);
    expect(prices.problems.map((p) => [p.line, p.message])).toEqual([[2, 'a/bad: needs "input" and "output", USD per million tokens']]);
  });
});
