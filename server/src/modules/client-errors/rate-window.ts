/**
 * A fixed window of `limit` events per key, kept in this instance's memory.
 *
 * This is flood protection for a log, not a security boundary: behind several
 * instances each keeps its own windows (a client may reach `limit` on each),
 * and a restart forgets them. At most `maxKeys` windows are kept; when that is
 * reached, expired windows go first, then the oldest live one (that key simply
 * starts afresh), so memory stays bounded whatever the number of clients.
 */
export class RateWindow {
  // Insertion order is window-start order: a key whose window restarts is
  // deleted and inserted again, so the first entries are always the oldest.
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Counts one event for `key` at `now` (ms); null when allowed, else the seconds to wait. */
  hit(key: string, now: number): number | null {
    let window = this.windows.get(key)
    if (window && now - window.start >= this.windowMs) {
      this.windows.delete(key)
      window = undefined
    }
    if (!window) {
      this.makeRoom(now)
      window = { start: now, count: 0 }
      this.windows.set(key, window)
    }
    if (window.count >= this.limit) return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000))
    window.count += 1
    return null
  }

  get size(): number {
    return this.windows.size
  }

  private makeRoom(now: number): void {
    for (const [key, window] of this.windows) {
      if (this.windows.size < this.maxKeys && now - window.start < this.windowMs) return
      this.windows.delete(key)
    }
  }
}
