import { systemClock } from './clock.ts'
import type { CliCommand } from './cli.types.ts'
import { serverJobs } from './jobs/jobs.ts'
import { CALLINGS_CLI } from './modules/callings/callings.cli.ts'
import { DB_ROLES_CLI } from './modules/ops/db-roles.cli.ts'
import { HOUSEKEEPING_CLI } from './modules/ops/housekeeping.ts'
import { DAILY_CLI } from './modules/notifications/daily.ts'
import { STAKES_CLI } from './modules/stakes/stakes.cli.ts'
import { DEMO_CLI } from './demo/demo.cli.ts'

/** `jobs` lists the server's background jobs; `run <name>` runs one round of one now (e.g. from cron). */
const JOBS_CLI: CliCommand[] = [
  {
    name: 'jobs',
    usage: 'jobs',
    description: "list the server's background jobs and how often they run",
    async run(database, _args, config) {
      const deps = { ...database, clock: systemClock, config, log: console }
      for (const job of serverJobs(deps)) console.log(`${job.name.padEnd(14)}every ${job.every / 1000} s`)
      return 0
    },
  },
  {
    name: 'run',
    usage: 'run <job>',
    description: 'run one round of a background job now (see jobs)',
    async run(database, args, config) {
      const job = serverJobs({ ...database, clock: systemClock, config, log: console }).find((j) => j.name === args[0])
      if (!job) throw new Error(`unknown job "${args[0] ?? ''}" (npm run cli -- jobs lists them)`)
      await job.run().finally(() => job.close?.())
      return 0
    },
  },
]

export const CLI_COMMANDS: CliCommand[] = [
  ...CALLINGS_CLI,
  ...HOUSEKEEPING_CLI,
  ...DAILY_CLI,
  ...DB_ROLES_CLI,
  ...JOBS_CLI,
  ...STAKES_CLI,
  ...DEMO_CLI,
]
