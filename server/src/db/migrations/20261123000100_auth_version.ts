import type { Kysely } from 'kysely'
import { createVersionCounter } from '../version-counter.ts'

/**
 * `auth_version`: a change counter (see db/version-counter.ts) over what the
 * per-request auth check keeps between requests for a signed-in user — the
 * user row, direct grants, held slots and the grants and names of callings.
 * Sessions are not in it: every request checks its session in the database.
 */
const ACCESS_TABLES = ['users', 'user_permissions', 'calling_slots', 'calling_permissions', 'callings'] as const

export async function up(db: Kysely<any>): Promise<void> {
  await createVersionCounter(db, 'auth_version', ACCESS_TABLES)
}
