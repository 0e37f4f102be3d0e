/**
 * A fixed window of one limit (migration 20261130020000_rate_limits):
 * deployment-wide, not stake-owned — an anonymous request has no stake until
 * it is counted, and a stake's own budget names the stake in `key`.
 */
export interface RateLimitsTable {
  /** Which limit (`LIMITS` in limits.ts). */
  bucket: string
  /** What is counted: a client address, a link's hash, a user or stake id. */
  key: string
  /** Requests counted in the window, the refused ones included. */
  hits: number
  /** When the window ends (ISO); from then on the row decides nothing. */
  window_end: string
}

/** The limits domain's tables, composed into `DB` by db/schema.ts. */
export interface LimitsTables {
  rate_limits: RateLimitsTable
}
