// List prices (prices.yml: the shipped default in assets/, the user's in the config folder, whose entries
// win) and the estimate they give: ((input - cached) x input + cached x cached_input + output x output) / 1e6
// (seed 001). A runner's own cost figure is never the estimate, and a bill is never added to one.
import { listCost, type TokenPrice } from '../shared/cost';
import { unwatchFile, watchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { problem, type CellSummary, type Problem } from '../shared/model';
import { packageRoot } from './paths';

export interface Price extends TokenPrice {
  source: string;
}

export interface Prices {
  byModel: Map<string, Price>;
  problems: Problem[];
}

function parsePrices({ isMap, isScalar, LineCounter, parseDocument }: typeof import('yaml'), text: string, file: string, into: Prices): void {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const [error] = doc.errors;
    into.problems.push(problem(file, `not valid YAML: ${error?.message.split('\n')[0]}; its prices are not used`, { line: error ? lines.linePos(error.pos[0]).line : undefined }));
    return;
  }
  if (!isMap(doc.contents)) return;
  for (const pair of doc.contents.items) {
    const model = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const line = pair.key && typeof pair.key === 'object' && 'range' in pair.key && pair.key.range ? lines.linePos(pair.key.range[0]).line : undefined;
    const value = isMap(pair.value) ? (pair.value.toJSON() as Record<string, unknown>) : {};
    const rate = (key: string) => (typeof value[key] === 'number' && Number.isFinite(value[key]) && (value[key] as number) >= 0 ? (value[key] as number) : null);
    const [input, output] = [rate('input'), rate('output')];
    if (input === null || output === null) {
      into.problems.push(problem(file, `${model}: needs "input" and "output", USD per million tokens`, { line }));
      continue;
    }
    into.byModel.set(model, { input, output, cached_input: rate('cached_input') ?? input, source: typeof value.source === 'string' ? value.source : 'no source given' });
  }
}

/** The shipped list prices, in the package's assets. */
export function shippedPrices(): string {
  return join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'assets', 'prices.yml');
}

/** The shipped prices, then the user's over them; a file that cannot be read or parsed is a problem, never a guess. */
export async function loadPrices(shipped: string, configDir: string): Promise<Prices> {
  const prices: Prices = { byModel: new Map(), problems: [] };
  for (const file of [shipped, join(configDir, 'prices.yml')]) {
    const text = await readFile(file, 'utf8').catch(() => null);
    // The YAML parser is loaded when there is YAML to parse: a command's start does not wait for it.
    if (text !== null) parsePrices(await import('yaml'), text, file, prices);
  }
  return prices;
}

/** The price of a model as runners name it: `provider/model`, or a bare model that one entry names. */
function priceOf(model: string, prices: Prices): { key: string; price: Price } | null {
  const exact = prices.byModel.get(model);
  if (exact) return { key: model, price: exact };
  const named = [...prices.byModel].filter(([key]) => key.slice(key.indexOf('/') + 1) === model);
  return named.length === 1 ? { key: (named[0] as [string, Price])[0], price: (named[0] as [string, Price])[1] } : null;
}

/** The row with its estimate at list prices and where it comes from; null with the reason where there is none. */
export function priced<T extends Pick<CellSummary, 'tokens' | 'labels' | 'cost_usd_estimate' | 'cost_source' | 'listPrice'>>(row: T, prices: Prices): T {
  const { input, cached_input, output } = row.tokens;
  const model = row.labels.model;
  const found = model ? priceOf(model, prices) : null;
  // The price the cell's model lists, for its units' estimates too (the same rule), even where its own tokens are not counted.
  const listPrice = found ? { input: found.price.input, cached_input: found.price.cached_input, output: found.price.output } : null;
  const none = (why: string) => ({ ...row, cost_usd_estimate: null, cost_source: why, listPrice });
  if (input === null || output === null) return none('no token counts in the files');
  if (!model) return none('no model named in the files');
  if (!found) return none(`no list price for ${model} in prices.yml`);
  return { ...row, cost_usd_estimate: listCost(found.price, { input, cached: cached_input, output }), cost_source: `prices.yml: ${found.key}, ${found.price.source}`, listPrice };
}

/** The prices the core prices rows with: loaded at start, loaded again when the user's file changes. */
export class PriceList {
  private prices: Prices = { byModel: new Map(), problems: [] };
  private readonly listeners: (() => void)[] = [];
  private readonly userFile: string;
  private readonly changed = () => void this.reload();

  constructor(
    private readonly shipped: string,
    private readonly configDir: string,
  ) {
    this.userFile = join(configDir, 'prices.yml');
  }

  async load(): Promise<void> {
    this.prices = await loadPrices(this.shipped, this.configDir);
    // A stat every few seconds: the file may not exist yet, and an edit in any editor (a rename over it) is seen.
    watchFile(this.userFile, { interval: 3000, persistent: false }, this.changed);
  }

  private async reload(): Promise<void> {
    this.prices = await loadPrices(this.shipped, this.configDir);
    this.listeners.forEach((listener) => listener());
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  price<T extends Pick<CellSummary, 'tokens' | 'labels' | 'cost_usd_estimate' | 'cost_source' | 'listPrice'>>(row: T): T {
    return priced(row, this.prices);
  }

  problems(): Problem[] {
    return this.prices.problems;
  }

  close(): void {
    unwatchFile(this.userFile, this.changed);
  }
}
