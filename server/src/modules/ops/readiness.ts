import fs from 'node:fs'
import path from 'node:path'
import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'

/** Below this much free space on its file system, a SQLite database is reported unable to take writes. */
const MIN_FREE_BYTES = 1024 * 1024

/**
 * Why the database cannot take a write now, or null when it can. Each probe
 * is bounded by the database timeouts (config.ts), so /ready never hangs.
 * - PostgreSQL: one statement on a pooled connection; a standby (or a
 *   database set read-only) answers `transaction_read_only = on`.
 * - SQLite: BEGIN IMMEDIATE then ROLLBACK takes and gives back the write
 *   lock (fails while another process holds it beyond the busy timeout, or on
 *   a read-only file), and the file system must have MIN_FREE_BYTES free
 *   (a full disk fails writes while reads go on). Nothing is written: a
 *   rolled-back transaction never touches the file.
 */
export async function whyNotWritable(db: Kysely<DB>, dialect: Dialect): Promise<string | null> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{
      read_only: string
    }>`select current_setting('transaction_read_only') as read_only`.execute(db)
    return rows[0]?.read_only === 'off' ? null : 'the database is read-only'
  }
  await db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection)
    await sql`rollback`.execute(connection)
  })
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db)
  const file = rows.find((row) => row.name === 'main')?.file
  if (!file) return null // in memory
  const stats = await fs.promises.statfs(path.dirname(file))
  const free = stats.bavail * stats.bsize
  return free < MIN_FREE_BYTES ? `only ${free} bytes free on the database's file system` : null
}
