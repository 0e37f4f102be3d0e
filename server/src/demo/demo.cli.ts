import type { CliCommand } from '../cli.types.ts'
import { buildApp } from '../app.ts'
import { systemClock, type Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import { describeDemo } from './demo.describe.ts'
import { seedDemo, type DemoResult } from './demo.seed.ts'

const DEMO_STAKE_NAME = 'Demo Stake'

/**
 * A demo stake in `database` (docs/demo.md), made through an app of its own
 * that has no mail: nothing is ever sent to the demo's invented addresses,
 * whatever the deployment's SMTP_URL.
 */
async function createDemoStake(
  database: Pick<Database, 'db' | 'dialect'>,
  config: Config,
  stakeName = DEMO_STAKE_NAME,
  clock: Clock = systemClock,
): Promise<DemoResult> {
  const quiet: Config = { ...config, smtpUrl: null, webDist: null }
  const app = await buildApp({ config: quiet, db: database.db, dialect: database.dialect, clock, logger: false })
  try {
    await app.ready()
    return await seedDemo({ app, db: database.db, dialect: database.dialect, config: quiet, clock }, stakeName)
  } finally {
    await app.close()
  }
}

export const DEMO_CLI: CliCommand[] = [
  {
    name: 'demo',
    usage: 'demo [--stake NAME] [--json]',
    description: 'add a stake of invented people and work in every stage (prints the sign-ins)',
    async run(database, args, config) {
      const json = args.includes('--json')
      const at = args.indexOf('--stake')
      const name = at === -1 ? DEMO_STAKE_NAME : args[at + 1]?.trim()
      if (!name || name.startsWith('--') || name.length > 100)
        throw new Error('--stake needs a name (1–100 characters)')
      const result = await createDemoStake(database, config, name)
      console.log(json ? JSON.stringify(result) : describeDemo(result))
      return 0
    },
  },
]
