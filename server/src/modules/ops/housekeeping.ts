import type { Kysely } from 'kysely'
import type { CliCommand } from '../../cli.types.ts'
import { addSeconds, systemClock, type Clock } from '../../clock.ts'
import type { DB } from '../../db/schema.ts'
import { retrying } from '../../db/transaction.ts'
import { scheduled, type Job, type JobLog } from '../../jobs/job.ts'
import { REFRESH_GRACE_SECONDS } from '../auth/auth.service.ts'
import { THROTTLE } from '../auth/attempts.ts'
import { clearExpiredGrace, purgeExpiredSessions } from '../auth/sessions.repository.ts'
import { purgeStaleThrottle } from '../auth/throttle.repository.ts'
import { idleCutoff } from '../auth/shared-sessions.ts'
import { purgeAudit } from '../audit/audit.repository.ts'
import { purgeEndedLimits } from '../limits/limits.repository.ts'
import { forgetMailBodies, purgeFinishedMail } from '../notifications/outbox.repository.ts'

export interface Purged {
  /** Sessions past their expiry, or idle on a shared computer (docs/api-reference.md §13), deleted. */
  sessions: number
  /** Sessions whose previous refresh token's grace has passed: its hash forgotten. */
  refreshGrace: number
  /** Login-throttle rows with an ended window and no lock, deleted. */
  throttle: number
  /** Windows of the limits kept in the database (modules/limits) that have ended, deleted. */
  limits: number
  /** Audit entries older than AUDIT_RETENTION_DAYS, deleted. */
  audit: number
  /** Sent or failed mail finished more than MAIL_BODY_DAYS ago: body emptied. */
  mailBodies: number
  /** Sent or failed mail finished more than AUDIT_RETENTION_DAYS ago: row deleted. */
  mail: number
}

/** A finished mail's body (names and callings of people) is kept this long, for a manager looking into a failure. */
const MAIL_BODY_DAYS = 7

interface Retention {
  /** AUDIT_RETENTION_DAYS (docs/api-reference.md §13). */
  auditDays: number
}

const DEFAULT_RETENTION: Retention = { auditDays: 730 }

/**
 * Removes what no longer decides anything, so these tables do not grow
 * forever. Each step is one statement of its own and only touches rows that
 * every reader already ignores, so it needs no transaction and can run at any
 * time beside requests.
 */
export async function purgeExpired(db: Kysely<DB>, now: Date, retention = DEFAULT_RETENTION): Promise<Purged> {
  const nowIso = now.toISOString()
  return {
    // Many rows per statement: a concurrent logout or sign-in may deadlock with it; run again then.
    sessions: await retrying(() => purgeExpiredSessions(db, nowIso, idleCutoff(now))),
    refreshGrace: await retrying(() => clearExpiredGrace(db, addSeconds(now, -REFRESH_GRACE_SECONDS).toISOString())),
    throttle: await retrying(() =>
      purgeStaleThrottle(db, nowIso, addSeconds(now, -THROTTLE.windowSeconds).toISOString()),
    ),
    limits: await retrying(() => purgeEndedLimits(db, nowIso)),
    audit: await retrying(() => purgeAudit(db, daysBefore(now, retention.auditDays))),
    mailBodies: await retrying(() => forgetMailBodies(db, daysBefore(now, MAIL_BODY_DAYS))),
    mail: await retrying(() => purgeFinishedMail(db, daysBefore(now, retention.auditDays))),
  }
}

const daysBefore = (now: Date, days: number) => addSeconds(now, -days * 24 * 3600).toISOString()

const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000

/** The hourly purge (also once at start, for servers restarted more often than hourly). */
export const housekeepingJob = (db: Kysely<DB>, clock: Clock, log: JobLog, retention = DEFAULT_RETENTION): Job => ({
  name: 'housekeeping',
  every: HOUSEKEEPING_INTERVAL_MS,
  run: async () =>
    log.info({ purged: await purgeExpired(db, clock.now(), retention) }, 'housekeeping: purged expired rows'),
})

/** The purge on its timer (jobs/job.ts). */
export const housekeeping = (...args: Parameters<typeof housekeepingJob>) =>
  scheduled(housekeepingJob(...args), args[2])

/** `npm run cli -- purge`: the same purge on demand (e.g. from cron when the server is not running). */
export const HOUSEKEEPING_CLI: CliCommand[] = [
  {
    name: 'purge',
    usage: 'purge',
    description:
      'delete expired sessions, refresh grace, stale login-throttle rows, ended limit windows, audit entries and mail past retention',
    async run(database, _args, config) {
      const purged = await purgeExpired(database.db, systemClock.now(), { auditDays: config.auditRetentionDays })
      console.log(
        `Purged ${purged.sessions} expired session(s), ${purged.refreshGrace} expired refresh grace(s), ` +
          `${purged.throttle} stale login-throttle row(s), ${purged.audit} audit entr(ies) past retention, ` +
          `${purged.mailBodies} mail bod(ies) and ${purged.mail} mail row(s) past retention.`,
      )
      return 0
    },
  },
]
