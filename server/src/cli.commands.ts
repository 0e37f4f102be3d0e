import type { Config } from './config.ts'
import type { Database } from './db/database.ts'
import { CALLINGS_CLI } from './modules/callings/callings.cli.ts'
import { HOUSEKEEPING_CLI } from './modules/ops/housekeeping.ts'
import { DAILY_CLI } from './modules/notifications/daily.ts'

/** Commands contributed by domain modules (e.g. callings: list, fill a slot). */
export interface CliCommand {
  name: string
  usage: string
  description: string
  run(database: Database, args: string[], config: Config): Promise<number>
}

export const CLI_COMMANDS: CliCommand[] = [...CALLINGS_CLI, ...HOUSEKEEPING_CLI, ...DAILY_CLI]
