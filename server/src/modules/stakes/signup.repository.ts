import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { Executor } from '../../db/types.ts'

/**
 * Signup codes (docs/api-reference.md §14): deployment-wide, stored as the
 * SHA-256 of the code only, with the uses left.
 */
export async function createSignupCode(db: Kysely<DB>, codeHash: string, uses: number, now: string): Promise<void> {
  await db.insertInto('signup_codes').values({ code_hash: codeHash, uses_left: uses, created_at: now }).execute()
}

/** Whether the operator ever made a code (without any, `POST /stakes` does not exist). */
export async function signupEnabled(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('signup_codes').select('code_hash').limit(1).executeTakeFirst()
  return row !== undefined
}

/** Whether the code exists with uses left (a read: `spendSignupCode` decides). */
export async function usableSignupCode(db: Executor, codeHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('signup_codes')
    .select('uses_left')
    .where('code_hash', '=', codeHash)
    .executeTakeFirst()
  return row !== undefined && row.uses_left > 0
}

/**
 * Spends one use, atomically: one conditional UPDATE, so of two concurrent
 * signups with a code's last use only one gets it. False when none was left.
 */
export async function spendSignupCode(db: Executor, codeHash: string): Promise<boolean> {
  const result = await db
    .updateTable('signup_codes')
    .set((eb) => ({ uses_left: eb('uses_left', '-', 1) }))
    .where('code_hash', '=', codeHash)
    .where('uses_left', '>', 0)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
