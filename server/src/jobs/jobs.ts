import { dailyJob } from '../modules/notifications/daily.ts'
import { mailJob } from '../modules/notifications/mail.worker.ts'
import { housekeepingJob } from '../modules/ops/housekeeping.ts'
import { webhookJob } from '../modules/webhooks/webhooks.worker.ts'
import type { Job, JobDeps } from './job.ts'

/** Every background job of the server: main.ts runs them all, `npm run cli -- run <name>` one round of one. */
export const serverJobs = (deps: JobDeps): Job[] => [
  housekeepingJob(deps.db, deps.clock, deps.log, { auditDays: deps.config.auditRetentionDays }),
  mailJob(deps),
  dailyJob(deps),
  webhookJob(deps),
]
