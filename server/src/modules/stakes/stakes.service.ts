import { PERMISSIONS } from '@stake/contract'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { inStake } from '../../db/stake-scope.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { Executor } from '../../db/types.ts'
import { audit } from '../audit/audit.repository.ts'
import { syncHighCouncilSeatsIn } from '../callings/callings.repository.ts'
import { replaceDirectPermissions } from '../users/permissions.repository.ts'
import { insertUser } from '../users/users.repository.ts'
import { envSettings } from './stakes.settings.ts'

const ALL = [...PERMISSIONS]

/**
 * The system callings every stake starts with (docs/api-reference.md §4), as
 * the first stake got them from its migration: keys are stable, names may be
 * renamed by the stake. High Councilor seats follow the stake's
 * `high_council_seats`; Bishop slots come with the wards.
 */
export const SYSTEM_CALLINGS: { key: string; name: string; slots: number; grants: readonly string[] }[] = [
  { key: 'stake_president', name: 'Stake President', slots: 1, grants: ALL },
  { key: 'stake_first_counselor', name: 'Stake First Counselor', slots: 1, grants: ALL },
  { key: 'stake_second_counselor', name: 'Stake Second Counselor', slots: 1, grants: ALL },
  { key: 'stake_executive_secretary', name: 'Stake Executive Secretary', slots: 1, grants: ALL },
  { key: 'stake_clerk', name: 'Stake Clerk', slots: 1, grants: ALL },
  { key: 'high_councilor', name: 'High Councilor', slots: 0, grants: ['proposals.submit', 'proposals.view'] },
  { key: 'bishop', name: 'Bishop', slots: 0, grants: ['proposals.submit'] },
]

export interface NewStake {
  name: string
  admin: { email: string; fname: string; lname: string; password_hash: string; force_password_reset: boolean }
}

/** A new stake's settings: the environment's, as for the first stake (docs/api-reference.md §14). */
export const defaultSettings = (config: Config) => ({ ...envSettings(config), language: 'en' })

async function seedSystemCallings(trx: Executor, now: string): Promise<void> {
  for (const calling of SYSTEM_CALLINGS) {
    const { id } = await trx
      .insertInto('callings')
      .values({
        name: calling.name,
        name_key: calling.name.toLowerCase(),
        key: calling.key,
        is_public: true,
        system_defined: true,
        max_slots: calling.slots,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('calling_permissions')
      .values(calling.grants.map((permission) => ({ calling_id: id, permission })))
      .execute()
    if (calling.slots > 0) {
      await trx
        .insertInto('calling_slots')
        .values(Array.from({ length: calling.slots }, (_, i) => ({ calling_id: id, slot_id: i + 1 })))
        .execute()
    }
  }
}

/**
 * Creates a stake with its system callings, its high-council seats and its
 * first administrator (every permission, in this stake only), in one
 * transaction. A taken email fails the whole (a unique violation: emails are
 * unique across the deployment). Returns the ids.
 */
export function createStake(
  db: Kysely<DB>,
  dialect: Dialect,
  config: Config,
  stake: NewStake,
  now: string,
): Promise<{ stakeId: number; adminId: number }> {
  return withTransaction(db, (trx) => createStakeIn(trx, dialect, config, stake, now))
}

/** createStake inside the caller's transaction (a signup also spends its code in it). */
async function createStakeIn(
  trx: Executor,
  dialect: Dialect,
  config: Config,
  stake: NewStake,
  now: string,
): Promise<{ stakeId: number; adminId: number }> {
  const settings = defaultSettings(config)
  const { id: stakeId } = await trx
    .insertInto('stakes')
    .values({ name: stake.name.trim(), ...settings, settings_from_env: false, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  const adminId = await inStake(stakeId, async () => {
    await seedSystemCallings(trx, now)
    await syncHighCouncilSeatsIn(trx, dialect, settings.high_council_seats)
    const admin = await insertUser(trx, { ...stake.admin, now })
    await replaceDirectPermissions(trx, admin.id, ALL)
    return admin.id
  })
  return { stakeId, adminId }
}

/**
 * A new stake as the operator (`stake create`) or a signup (`POST /stakes`)
 * opens one: createStake plus its `stake.create` audit entry in the new
 * stake, and `first` (a signup spends its code) in the same transaction.
 */
export function openStake(
  db: Kysely<DB>,
  dialect: Dialect,
  config: Config,
  stake: NewStake,
  now: string,
  how: { source: 'operator' | 'signup'; first?: (trx: Executor) => Promise<void> },
): Promise<{ stakeId: number; adminId: number }> {
  return withTransaction(db, async (trx) => {
    await how.first?.(trx)
    const created = await createStakeIn(trx, dialect, config, stake, now)
    await inStake(created.stakeId, () =>
      audit(
        trx,
        { by: how.source === 'signup' ? created.adminId : null, at: now },
        'stake.create',
        { type: 'user', id: created.adminId },
        { name: stake.name.trim(), source: how.source },
      ),
    )
    return created
  })
}
