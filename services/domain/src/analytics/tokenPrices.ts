/** USD per million tokens, by model. */
export interface TokenPrice {
  inputPerMillion: number
  outputPerMillion: number
}

/**
 * Parses ANALYTICS_TOKEN_PRICES entries `model=input/output` (USD per million tokens), e.g.
 * `gpt-4o-mini=0.15/0.6`. A model without a price costs 0 (reported, not guessed).
 */
export function parseTokenPrices(entries: readonly string[]): Map<string, TokenPrice> {
  const prices = new Map<string, TokenPrice>()
  for (const entry of entries) {
    const match = /^(.+)=([0-9]+(?:\.[0-9]+)?)\/([0-9]+(?:\.[0-9]+)?)$/.exec(entry.trim())
    if (!match?.[1] || match[2] === undefined || match[3] === undefined)
      throw new Error(
        `ANALYTICS_TOKEN_PRICES entry "${entry}" is not model=input/output (USD per million tokens)`,
      )
    prices.set(match[1], { inputPerMillion: Number(match[2]), outputPerMillion: Number(match[3]) })
  }
  return prices
}

export function estimatedCostUsd(
  prices: ReadonlyMap<string, TokenPrice>,
  model: string,
  inputTokens: number,
  outputTokens: number,
): number {
  const price = prices.get(model)
  if (!price) return 0
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000
}

/** Percentage change against the previous equivalent period; null when that period had nothing to compare with. */
export function changePct(current: number, previous: number): number | null {
  if (previous === 0) return null
  return Number((((current - previous) / previous) * 100).toFixed(2))
}
