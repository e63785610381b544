// Tokens at list prices (prices.yml): the one rule a cell's estimate and each unit's are worked out by.

/** USD per million tokens of a model, as prices.yml lists it. */
export interface TokenPrice {
  input: number;
  cached_input: number;
  output: number;
}

/** A count of tokens in and out, cached reads counted inside input (as runners report them). */
export interface TokenCounts {
  input: number;
  cached: number | null;
  output: number;
}

/** The tokens at these prices, in USD: cached reads (at most all of the input) at the cached price. */
export function listCost(price: TokenPrice, { input, cached, output }: TokenCounts): number {
  const reads = Math.min(cached ?? 0, input);
  return ((input - reads) * price.input + reads * price.cached_input + output * price.output) / 1e6;
}
