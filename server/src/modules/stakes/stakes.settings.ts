import { PERMISSIONS, SLUG_PATTERN, type Permission, type Stake, type StakeBody } from '@stake/contract'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import { ianaTimeZone } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation, type Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { inStake, stakeIdOf } from '../../db/stake-scope.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { Executor } from '../../db/types.ts'
import { conflict, forbidden, invalid } from '../../errors.ts'
import { audited, record } from '../../events/record.ts'
import type { Actor } from '../../actor.ts'
import { fieldChanges } from '../../events/facts.ts'
import {
  findCallingByKey,
  HIGH_COUNCILOR,
  lockCalling,
  syncHighCouncilSeats,
  syncHighCouncilSeatsIn,
} from '../callings/callings.repository.ts'
import { highestFilledSlot } from '../callings/slots.repository.ts'
import {
  copyEnvSettings,
  currentStakeSettings,
  findStake,
  findStakeIdByRef,
  lockStake,
  STAKE_FIELDS,
  settingsSaved,
  stakesFromEnv,
  updateStake,
  type EnvSettings,
} from './stakes.repository.ts'

const FIELDS = STAKE_FIELDS

/** The stake's settings are everything at once: only someone who already holds every permission changes them. */
const mayChangeStake = (held: ReadonlySet<Permission>): boolean => PERMISSIONS.every((p) => held.has(p))

const slugTaken = () => conflict('slug_taken', 'Another stake of this deployment has this address: choose another')

/** A new address, checked before anything is locked; undefined keeps the stake's. */
function checkedSlug(body: StakeBody): string | undefined {
  if (body.slug === undefined || SLUG_PATTERN.test(body.slug)) return body.slug
  throw invalid(
    ['body', 'slug'],
    'Use lowercase letters, digits and single hyphens, starting with a letter (such as maple-stake)',
    'slug_format',
  )
}

/** Another stake's slug → 409 slug_taken (the unique index decides a race: see `update`). */
async function ensureSlugFree(trx: Executor, id: number, slug: string): Promise<void> {
  const owner = await findStakeIdByRef(trx, slug)
  if (owner !== null && owner !== id) throw slugTaken()
}

/** The environment's settings (§9), which a stake marked settings_from_env follows. */
export const envSettings = (config: Config): EnvSettings => ({
  timezone: config.stakeTimezone,
  sp_approvals_required: config.spApprovalsRequired,
  hc_approvals_required: config.hcApprovalsRequired,
  high_council_seats: config.highCouncilSeats,
})

/**
 * At start-up: a stake that still follows the environment variables (the
 * first stake of an install, until its settings are saved in the app) takes
 * their values again, and its High Councilor seats follow — so an install
 * run by environment variables behaves as before. Idempotent; safe for
 * several instances starting together.
 */
export async function applyEnvSettings(db: Kysely<DB>, dialect: Dialect, config: Config, now: string): Promise<void> {
  const values = envSettings(config)
  for (const id of await stakesFromEnv(db)) {
    const stake = await findStake(db, id)
    if (stake && (Object.keys(values) as (keyof EnvSettings)[]).some((k) => stake[k] !== values[k])) {
      await copyEnvSettings(db, id, values, now)
    }
    await inStake(id, () => syncHighCouncilSeats(db, dialect, values.high_council_seats))
  }
}

/** GET and PUT /stake (docs/api-reference.md §14): the caller's stake's settings. */
export class StakeSettingsService {
  constructor(private readonly ctx: AppContext) {}

  async get(): Promise<Stake> {
    const { db } = this.ctx
    const [stake, saved] = await Promise.all([currentStakeSettings(db), settingsSaved(db, stakeIdOf(db))])
    return { ...stake, settings_saved: saved }
  }

  /**
   * Saves every setting in one transaction: the stake's row (locked first),
   * its High Councilor seats and the audit entry. Fewer seats than the
   * highest filled one → 409 seats_filled (nobody is unseated by a setting).
   * From now on the stake no longer follows the environment variables.
   */
  async update(actor: Actor, body: StakeBody): Promise<Stake> {
    if (!mayChangeStake(actor.permissions)) {
      throw forbidden("Only someone who holds all seven permissions may change the stake's settings")
    }
    const timezone = ianaTimeZone(body.timezone)
    if (timezone === null) {
      throw invalid(['body', 'timezone'], 'Must be an IANA time zone name, such as America/Denver', 'time_zone')
    }
    const slug = checkedSlug(body)
    const { db, dialect } = this.ctx
    return withTransaction(db, async (trx) => {
      const id = stakeIdOf(trx)
      await lockStake(trx, id, dialect)
      const before = await findStake(trx, id)
      if (!before) throw new Error(`Stake ${id} does not exist`)
      if (slug !== undefined && slug !== before.slug) await ensureSlugFree(trx, id, slug)

      const seats = body.high_council_seats
      const calling = await findCallingByKey(trx, HIGH_COUNCILOR)
      if (calling) {
        await lockCalling(trx, calling.id, dialect, 'update')
        const filled = await highestFilledSlot(trx, calling.id)
        if (seats < filled) {
          throw conflict(
            'seats_filled',
            `High Councilor seat ${filled} is filled: release the seats above ${seats} first, or keep at least ${filled}`,
          )
        }
      }

      const now = this.ctx.clock.iso()
      const values = {
        name: body.name.trim(),
        slug: slug ?? before.slug,
        timezone,
        language: body.language,
        sp_approvals_required: body.sp_approvals_required,
        hc_approvals_required: body.hc_approvals_required,
        high_council_seats: seats,
      }
      // Two stakes taking one free slug at once: the unique index lets one win.
      await updateStake(trx, id, { ...values, settings_from_env: false, updated_at: now }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? slugTaken() : error
      })
      await syncHighCouncilSeatsIn(trx, dialect, seats)
      const after: Stake = { id, ...values }
      const changes = fieldChanges(before, after, FIELDS)
      if (changes) {
        await record(
          trx,
          this.ctx,
          audited({ by: actor.id, at: now }, 'stake.update', { type: 'stake', id }, { name: after.name, changes }),
        )
      }
      return { ...after, settings_saved: true }
    })
  }
}
