import path from 'node:path'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildApp } from './app.ts'
import { systemClock } from './clock.ts'
import { ConfigError, parseConfig, type Config } from './config.ts'
import { createDatabase } from './db/database.ts'
import { migrateAsOwner, RlsRefusal } from './db/rls-guard.ts'
import { scheduled } from './jobs/job.ts'
import { serverJobs } from './jobs/jobs.ts'
import { backupBeforeMigrate } from './modules/ops/backup.ts'
import { startupBanner, startupTasks } from './startup.ts'
import { installShutdown } from './shutdown.ts'

const here = path.dirname(fileURLToPath(import.meta.url))

function loadConfig(): Config {
  // An optional .env in the working directory; real environment variables win.
  if (fs.existsSync('.env')) process.loadEnvFile('.env')
  try {
    return { ...parseConfig(process.env), webDist: path.resolve(here, '../../web/dist') }
  } catch (error) {
    if (error instanceof ConfigError) {
      // Synchronous: console.error to a pipe may be lost by process.exit.
      fs.writeSync(2, `Configuration error: ${error.message}\n`)
      process.exit(2)
    }
    throw error
  }
}

async function main(): Promise<void> {
  const config = loadConfig()
  // Connection failures outside any request go to the app's log once it exists.
  let log: (error: Error, where: string) => void = (error, where) =>
    console.error(`database ${where} error: ${error.message}`)
  const database = createDatabase(config.databaseUrl, {
    timeouts: config.timeouts,
    onError: (error, where) => log(error, where),
  })
  const preMigrate = await backupBeforeMigrate(config, database.db, database.dialect)
  if (preMigrate) console.log(`Backed up the database before migrating it: ${preMigrate}`)
  await migrateAsOwner(config, database)

  const app = await buildApp({
    config,
    db: database.db,
    dialect: database.dialect,
    logger: { level: config.logLevel },
  })
  log = (error, where) => app.log.warn({ err: error, where }, 'database connection error')
  const firstRun = await startupTasks(app, config, database.db)

  const deps = { db: database.db, dialect: database.dialect, clock: systemClock, config, log: app.log }
  const jobs = serverJobs(deps).map((job) => scheduled(job, app.log))
  // Stopped while the app closes, before the database does (shutdown.ts).
  app.addHook('onClose', () => Promise.all(jobs.map((job) => job.stop())).then(() => undefined))
  installShutdown(app, database, config.timeouts)

  await app.listen({ port: config.port, host: config.host })
  for (const job of jobs) job.start()
  const shown = config.host === '0.0.0.0' ? '127.0.0.1' : config.host
  console.log(startupBanner(`http://${shown}:${config.port}/`, firstRun))
}

main().catch((error) => {
  if (error instanceof RlsRefusal) {
    fs.writeSync(2, `Refusing to start: ${error.message}\n`)
    process.exit(2)
  }
  console.error(error)
  process.exit(1)
})
