import { dailyJob } from '../modules/notifications/daily.ts'
import { mailJob } from '../modules/notifications/mail.worker.ts'
import { housekeepingJob } from '../modules/ops/housekeeping.ts'
import { webhookJob } from '../modules/webhooks/webhooks.worker.ts'
import { importsPurgeJob } from '../modules/imports/imports.purge.ts'
import type { Job, JobDeps } from './job.ts'
import { acrossStakes } from '../db/stake-scope.ts'

/** Every background job of the server: main.ts runs them all, `npm run cli -- run <name>` one round of one. */
export const serverJobs = (deps: JobDeps): Job[] => [
  acrossEveryStake(housekeepingJob(deps.db, deps.clock, deps.log, { auditDays: deps.config.auditRetentionDays })),
  acrossEveryStake(mailJob(deps)),
  // Each stake's day in turn (db/stake-scope.ts): it scopes itself.
  dailyJob(deps),
  acrossEveryStake(webhookJob(deps)),
  // purgeExpiredImports runs across stakes itself.
  importsPurgeJob(deps.db, deps.clock, deps.log),
]

/** A job that serves every stake at once (the outboxes, housekeeping): its rounds run across stakes. */
function acrossEveryStake(job: Job): Job {
  return { ...job, run: () => acrossStakes(() => job.run()) }
}
