import type { Config } from './config.ts'
import type { Database } from './db/database.ts'

/** Commands contributed by domain modules (e.g. callings: list, fill a slot). */
export interface CliCommand {
  name: string
  usage: string
  description: string
  run(database: Database, args: string[], config: Config): Promise<number>
}
