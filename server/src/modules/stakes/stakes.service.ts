import { PERMISSIONS, type Permission } from '@stake/contract'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { inStake } from '../../db/stake-scope.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { Executor } from '../../db/types.ts'
import { audited, record } from '../../events/record.ts'
import {
  insertSystemCalling,
  replaceCallingPermissions,
  syncHighCouncilSeatsIn,
} from '../callings/callings.repository.ts'
import { ensureSlots } from '../callings/slots.repository.ts'
import { replaceDirectPermissions } from '../users/permissions.repository.ts'
import { insertUser } from '../users/users.repository.ts'
import { envSettings } from './stakes.settings.ts'
import { insertStake } from './stakes.repository.ts'

const ALL = [...PERMISSIONS]

/**
 * The system callings every stake starts with (docs/api-reference.md §4), as
 * the first stake got them from its migration: keys are stable, names may be
 * renamed by the stake. High Councilor seats follow the stake's
 * `high_council_seats`; Bishop slots come with the wards.
 */
export const SYSTEM_CALLINGS: { key: string; name: string; slots: number; grants: readonly Permission[] }[] = [
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
    const id = await insertSystemCalling(trx, calling, now)
    await replaceCallingPermissions(trx, id, [...calling.grants])
    await ensureSlots(trx, id, calling.slots)
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
  const stakeId = await insertStake(trx, {
    name: stake.name.trim(),
    ...settings,
    settings_from_env: false,
    created_at: now,
    updated_at: now,
  })
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
    const who = { by: how.source === 'signup' ? created.adminId : null, at: now }
    const facts = { name: stake.name.trim(), source: how.source }
    await inStake(created.stakeId, () =>
      record(trx, { config, dialect }, audited(who, 'stake.create', { type: 'user', id: created.adminId }, facts)),
    )
    return created
  })
}
