/**
 * Values built from the database, kept per key together with the value of a
 * change counter (db/version-counter.ts) read before they were built. An
 * entry is served only while the counter still has that value, so it is never
 * older than the database — on every instance sharing it. A build that read
 * the counter first can only be newer than its version says.
 *
 * Concurrent requests for one key and version share one build; a request that
 * read an older version never replaces a newer entry; a failed build is not kept.
 */
export class VersionedCache<K, V> {
  private readonly entries = new Map<K, { version: number; value: Promise<V> }>()

  constructor(private readonly maxEntries: number) {}

  obtain(key: K, version: number, build: () => Promise<V>): Promise<V> {
    const kept = this.entries.get(key)
    if (kept && kept.version === version) return kept.value
    const value = build()
    if (!kept || kept.version < version) {
      const entry = { version, value }
      this.entries.delete(key)
      this.entries.set(key, entry)
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
      value.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key)
      })
    }
    return value
  }
}
