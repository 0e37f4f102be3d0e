import { sql } from 'kysely'
import type { Dialect } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { conflict } from '../../errors.ts'
import { activeHolders } from './permissions.repository.ts'

/** 'UM' — the advisory lock of the "last user manager" rule. */
const USER_MANAGERS_LOCK = 0x554d

/**
 * The "last user manager" rule (docs/api-reference.md §4), for every write that may take
 * users.manage away from someone: deactivating a user, removing a direct
 * grant, releasing a slot, changing a calling's grants (S2). Call it inside the transaction, after the
 * write: 409 last_manager (and the caller's transaction rolls back) when no
 * active user holds users.manage any more. On PostgreSQL the checks are
 * serialized by a transaction-scoped advisory lock — two transactions that
 * each remove one of the last two holders would otherwise each still see the
 * other's holder (READ COMMITTED) and both commit; whoever waits for the lock
 * sees the first one's commit. SQLite runs one write transaction at a time.
 */
export async function assertUserManagerRemains(
  trx: Executor,
  dialect: Dialect,
  formerHolderIds?: readonly number[],
): Promise<void> {
  // A slot release or grant change takes nothing from anyone when the former
  // holders are inactive (they did not count). A deactivation passes no ids.
  if (formerHolderIds) {
    if (formerHolderIds.length === 0) return
    const active = await trx
      .selectFrom('users')
      .select('id')
      .where('id', 'in', formerHolderIds)
      .where('active', '=', true)
      .limit(1)
      .execute()
    if (active.length === 0) return
  }
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${USER_MANAGERS_LOCK}, 0)`.execute(trx)
  if ((await activeHolders(trx, 'users.manage')).length === 0) {
    throw conflict('last_manager', 'This would leave no active user who can manage users')
  }
}
