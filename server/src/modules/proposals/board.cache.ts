/**
 * Serialized boards of this instance of the service (GET /board answers the
 * same bytes until something it shows changes).
 *
 * An entry is served only when all of these hold, so it is never older than
 * what a fresh build would show:
 * - its `version` equals the board_version the request read from the
 *   database. The version is read before the rows an entry is built from, and
 *   triggers bump it in the transaction of every write to proposals, votes
 *   and interviews, so an entry's rows are never older than its version — on
 *   every instance sharing the database.
 * - its key matches: the caller's id (`my_vote` and "own submissions" differ
 *   per caller) and visibility scope (seats and permissions change without a
 *   board write).
 * - the 30-day window of `closed_recently` still holds the same cards: the
 *   request's window start is not before the one the entry was built for,
 *   and not after the most recent-but-oldest closed card in it.
 */
export interface BuiltBoard {
  bytes: Buffer
  /** The oldest stage_changed_at of the closed cards in it; null when none. */
  oldestClosed: string | null
}

interface Entry {
  version: number
  closedSince: string
  built: Promise<BuiltBoard>
}

export class BoardCache {
  private readonly entries = new Map<string, Entry>()

  constructor(private readonly maxEntries = 64) {}

  /**
   * The cached bytes for this key, version and window start, or those of
   * `build()` (stored for the next request). Concurrent requests for the
   * same board share one build.
   */
  async obtain(key: string, version: number, closedSince: string, build: () => Promise<BuiltBoard>): Promise<Buffer> {
    const entry = this.entries.get(key)
    if (entry && entry.version === version && entry.closedSince <= closedSince) {
      const built = await entry.built.catch(() => null)
      if (built && (built.oldestClosed === null || closedSince <= built.oldestClosed)) {
        // Most recently used last: the first key is the one to evict.
        this.entries.delete(key)
        this.entries.set(key, entry)
        return built.bytes
      }
    }
    const fresh: Entry = { version, closedSince, built: build() }
    // A request that read an older version does not replace a newer entry.
    if (!entry || entry.version <= version) {
      this.entries.delete(key)
      this.entries.set(key, fresh)
      while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    }
    try {
      return (await fresh.built).bytes
    } catch (error) {
      if (this.entries.get(key) === fresh) this.entries.delete(key)
      throw error
    }
  }
}
