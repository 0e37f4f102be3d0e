import { deploymentTable, type RowsOf } from '../../db/table.ts'

/** A fixed window of one limit (migration 20261130020000_rate_limits). */
export interface RateLimitsTable {
  /** Which limit (`LIMITS` in limits.ts). */
  bucket: string
  /** What is counted: a client address, a link's id, a user or a stake's budget. */
  key: string
  /** Requests counted in the window, the refused ones included. */
  hits: number
  /** When the window ends (ISO); from then on the row decides nothing. */
  window_end: string
}

/** The limits domain's tables (db/table.ts). */
export const limitsTables = {
  rate_limits: deploymentTable<RateLimitsTable>({
    why: 'an anonymous request is counted before any stake is known; a stake’s own budget names the stake in its key',
  }),
}
export type LimitsTables = RowsOf<typeof limitsTables>
