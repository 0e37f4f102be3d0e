import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.ts'
import type { DB } from '../../db/schema.ts'
import { retrying } from '../../db/transaction.ts'
import type { Job, JobLog } from '../../jobs/job.ts'
import { purgeExpiredImports } from './imports.repository.ts'

/**
 * Previews hold names, emails and phones of a report; once their 24 hours
 * are over nobody can open them (docs/api-reference.md §15), so the hourly
 * round deletes them, applied or not.
 */
export const importsPurgeJob = (db: Kysely<DB>, clock: Clock, log: JobLog): Job => ({
  name: 'imports-purge',
  every: 60 * 60 * 1000,
  run: async () => {
    const deleted = await retrying(() => purgeExpiredImports(db, clock.iso()))
    if (deleted > 0) log.info({ deleted }, 'imports: expired previews deleted')
  },
})
