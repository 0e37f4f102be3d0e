import type { Kysely } from 'kysely'
import type { CliCommand } from '../../cli.types.ts'
import type { Clock } from '../../clock.ts'
import { systemClock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import type { DB } from '../../db/schema.ts'
import { retrying, withTransaction } from '../../db/transaction.ts'
import { inStake } from '../../db/stake-scope.ts'
import { currentStakeSettings, stakeTimeZones } from '../stakes/stakes.repository.ts'
import type { Job, JobLog } from '../../jobs/job.ts'
import { dailyBackup } from '../ops/backup.ts'
import { purgeExpired, type Purged } from '../ops/housekeeping.ts'
import { lockProposal } from '../proposals/proposals.repository.ts'
import { sendDigests } from './digest.ts'
import { record } from '../../events/record.ts'
import { lastNotificationOf, remindedAfter, waitingProposals } from './reminders.repository.ts'
import { sendAppointmentReminders } from '../appointments/appointments.reminders.ts'

export interface DailyDeps {
  db: Kysely<DB>
  dialect: Dialect
  clock: Clock
  config: Config
}

/** The local date and hour at `at` in the stake's time zone. */
export function localDayAndHour(at: Date, timeZone: string): { day: string; hour: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  )
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) }
}

/**
 * Automatic reminders (docs/api-reference.md §11): each voter still missing a vote on a
 * proposal that has waited at its voting stage longer than
 * REMIND_AFTER_HOURS gets one reminder for that visit to the stage (the
 * auto_reminders key). They do not touch the manual one-hour limit.
 */
async function sendAutoReminders(deps: DailyDeps, now: Date): Promise<number> {
  const at = now.toISOString()
  const before = new Date(now.getTime() - deps.config.remindAfterHours * 3600 * 1000).toISOString()
  let reminded = 0
  for (const waiting of await waitingProposals(deps.db, before)) {
    reminded += await withTransaction(deps.db, async (trx) => {
      const proposal = await lockProposal(trx, waiting.id, deps.dialect)
      // Moved meanwhile: a new visit starts its own wait.
      if (!proposal || proposal.stage !== waiting.stage || proposal.stage_changed_at !== waiting.stage_changed_at)
        return 0
      const before = await lastNotificationOf(trx, proposal.id)
      await record(trx, deps, { kind: 'proposal.remind', proposalId: proposal.id, automatic: true, by: null, at })
      return (await remindedAfter(trx, proposal.id, before)).length
    })
  }
  return reminded
}

export interface DailyResult {
  day: string
  /** False when the day's jobs had already run (on this or another instance). */
  ran: boolean
  digests: number
  reminders: number
  purged: Purged | null
}

/**
 * The daily jobs of the current stake: digest, automatic reminders,
 * housekeeping. The day is the stake's own, in its time zone; it is
 * claimed first by inserting its row into daily_runs (its primary key lets
 * one run win, however many instances try), so a second run the same day
 * sends nothing. Each job is idempotent as well (digested notifications,
 * auto_reminders), so `force` may run them again safely.
 */
export async function runDaily(deps: DailyDeps, options: { force?: boolean } = {}): Promise<DailyResult> {
  const now = deps.clock.now()
  const { day } = localDayAndHour(now, (await currentStakeSettings(deps.db)).timezone)
  const claimed = await retrying(() =>
    deps.db
      .insertInto('daily_runs')
      .values({ day, started_at: now.toISOString(), finished_at: null })
      .onConflict((oc) => oc.columns(['stake_id', 'day']).doNothing())
      .returning('day')
      .executeTakeFirst(),
  )
  if (!claimed && !options.force) return { day, ran: false, digests: 0, reminders: 0, purged: null }
  const reminders = await sendAutoReminders(deps, now)
  await sendAppointmentReminders(deps, now)
  // After the reminders: those of `daily` users go into today's digest.
  const digests = await sendDigests(deps, now.toISOString())
  const purged = await purgeExpired(deps.db, now, { auditDays: deps.config.auditRetentionDays })
  await retrying(() =>
    deps.db.updateTable('daily_runs').set({ finished_at: deps.clock.iso() }).where('day', '=', day).execute(),
  )
  return { day, ran: true, digests, reminders, purged }
}

/** How often the server checks whether the day's jobs are due. */
const DAILY_CHECK_MS = 60_000

/**
 * The daily jobs in the server process: checked every minute, run once the
 * local hour has reached DAILY_HOUR and the day has no run yet (a server
 * started later in the day catches up).
 */
export const dailyJob = (deps: DailyDeps & { log: JobLog }): Job => ({
  name: 'daily',
  every: DAILY_CHECK_MS,
  async run() {
    // Each stake's day, in its own time zone, claimed in that stake
    // (docs/api-reference.md §14); the backup, of the whole database, follows
    // the default stake's claim.
    for (const { id: stakeId, timezone } of await stakeTimeZones(deps.db)) {
      const result = await inStake(stakeId, async () => {
        const { day, hour } = localDayAndHour(deps.clock.now(), timezone)
        if (hour < deps.config.dailyHour) return null
        if (await deps.db.selectFrom('daily_runs').select('day').where('day', '=', day).executeTakeFirst()) return null
        return runDaily(deps)
      })
      if (!result?.ran) continue
      deps.log.info({ daily: result, stake_id: stakeId }, 'daily jobs done')
      if (stakeId === deps.config.defaultStakeId) await dailyBackup(deps.config, deps.log)
    }
  },
})

export const DAILY_CLI: CliCommand[] = [
  {
    name: 'daily',
    usage: 'daily [--force]',
    description: 'run the daily jobs now (digest, reminders, purge); once a day unless --force',
    async run(database, args, config) {
      const result = await inStake(config.defaultStakeId, () =>
        runDaily(
          { db: database.db, dialect: database.dialect, clock: systemClock, config },
          { force: args.includes('--force') },
        ),
      )
      if (!result.ran) {
        console.log(`The daily jobs already ran on ${result.day}; nothing sent (use --force to run them again).`)
        return 0
      }
      console.log(
        `Daily jobs for ${result.day}: ${result.digests} digest(s), ${result.reminders} reminder(s) queued; ` +
          `purged ${result.purged!.sessions} session(s), ${result.purged!.throttle} throttle row(s).`,
      )
      return 0
    },
  },
]
