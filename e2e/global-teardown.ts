import { rmSync } from 'node:fs'

/** Removes the temporary SQLite database (and its WAL files) the run created. */
export default function globalTeardown() {
  const db = process.env.E2E_DB
  if (!db || process.env.E2E_BASE_URL || process.env.E2E_KEEP_DB) return
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${db}${suffix}`, { force: true })
}
