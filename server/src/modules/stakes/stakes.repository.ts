import { SLUG_LENGTH, slugChoice, slugOf, type Stake } from '@stake/contract'
import type { Insertable, Kysely } from 'kysely'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import type { StakesTable } from './stakes.tables.ts'
import { stakeIdOf } from '../../db/stake-scope.ts'
import type { Executor } from '../../db/types.ts'

/**
 * A new stake's row; its id. Its slug is `slugBase` (default: made from its
 * name), followed by `-2`, `-3`… when taken. Each try is an insert that does
 * nothing on a taken slug, so two stakes made at once with one name get two
 * slugs, never a failed transaction.
 */
export async function insertStake(
  db: Executor,
  stake: Omit<Insertable<StakesTable>, 'slug'>,
  slugBase = slugOf(stake.name),
): Promise<number> {
  const taken = await db
    .selectFrom('stakes')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', slugBase), eb('slug', 'like', `${slugBase.slice(0, 50)}-%`)]))
    .execute()
  const known = new Set(taken.map((r) => r.slug))
  for (let n = 1; ; n += 1) {
    const slug = slugChoice(slugBase, n)
    if (known.has(slug)) continue
    const row = await db
      .insertInto('stakes')
      .values({ ...stake, slug })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (row) return row.id
  }
}

/**
 * The stake `?stake=` names (docs/api-reference.md §14): an id or a slug
 * (any letter case); null when no stake has it.
 */
export async function findStakeIdByRef(db: Executor, ref: string): Promise<number | null> {
  const query = db.selectFrom('stakes').select('id')
  const id = /^[1-9]\d{0,9}$/.test(ref) ? Number(ref) : null
  let row: { id: number } | undefined
  if (id !== null) row = id <= 2147483647 ? await query.where('id', '=', id).executeTakeFirst() : undefined
  else if (ref.length <= SLUG_LENGTH.max) row = await query.where('slug', '=', ref.toLowerCase()).executeTakeFirst()
  return row?.id ?? null
}

/** Every stake's id and time zone, oldest first: the daily job's loop, in one query. */
export function stakeTimeZones(db: Kysely<DB>): Promise<{ id: number; timezone: string }[]> {
  return db.selectFrom('stakes').select(['id', 'timezone']).orderBy('id').execute()
}

/** A stake's settings (docs/api-reference.md §14), as GET /stake shows them. */
export type StakeSettings = Stake

/** The fields PUT /stake may change, in the audit entry's order. */
export const STAKE_FIELDS = [
  'name',
  'slug',
  'timezone',
  'language',
  'sp_approvals_required',
  'hc_approvals_required',
  'high_council_seats',
] as const

const SETTINGS = ['id', ...STAKE_FIELDS] as const

/** The settings that came from environment variables before stakes had their own (§9). */
export type EnvSettings = Pick<
  Stake,
  'timezone' | 'sp_approvals_required' | 'hc_approvals_required' | 'high_council_seats'
>

export async function findStake(db: Executor, id: number): Promise<StakeSettings | undefined> {
  const row = await db.selectFrom('stakes').select(SETTINGS).where('id', '=', id).executeTakeFirst()
  return row && { ...row, language: row.language === 'es' ? 'es' : 'en' }
}

/**
 * The settings of the stake the caller works in (a request's, a job's loop):
 * one primary-key lookup, read each time they are used — no cache, so a
 * change saved by another instance counts at once.
 */
export async function currentStakeSettings(db: Executor): Promise<StakeSettings> {
  const id = stakeIdOf(db)
  const stake = await findStake(db, id)
  if (!stake) throw new Error(`Stake ${id} does not exist`)
  return stake
}

/**
 * Whether an administrator saved the stake's settings: a saved stake no
 * longer follows the environment, and its row changed after it was made
 * (the first stake follows the environment until then; a made one never did).
 */
export async function settingsSaved(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('stakes')
    .select(['settings_from_env', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row !== undefined && !row.settings_from_env && row.updated_at !== row.created_at
}

/** Locks the stake's row until the transaction ends (PostgreSQL; SQLite writes one at a time). */
export async function lockStake(trx: Executor, id: number, dialect: Dialect): Promise<void> {
  const query = trx.selectFrom('stakes').select('id').where('id', '=', id)
  await (dialect === 'postgres' ? query.forUpdate() : query).execute()
}

export async function updateStake(
  trx: Executor,
  id: number,
  values: Omit<StakeSettings, 'id'> & { settings_from_env: boolean; updated_at: string },
): Promise<void> {
  await trx.updateTable('stakes').set(values).where('id', '=', id).execute()
}

/** The stakes that still follow the environment variables (the first stake, until its settings are saved). */
export async function stakesFromEnv(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('stakes').select('id').where('settings_from_env', '=', true).orderBy('id').execute()
  return rows.map((r) => r.id)
}

/** Copies the environment's settings into a stake that follows them (its row stays marked settings_from_env). */
export async function copyEnvSettings(db: Executor, id: number, values: EnvSettings, now: string): Promise<void> {
  await db
    .updateTable('stakes')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .where('settings_from_env', '=', true)
    .execute()
}
