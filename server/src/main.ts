import cluster from 'node:cluster'
import path from 'node:path'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { systemClock } from './clock.ts'
import { ConfigError, parseConfig, type Config } from './config.ts'
import type { Database } from './db/database.ts'
import { createDatabase } from './database.ts'
import { migrateAsOwner, RlsRefusal } from './rls-guard.ts'
import { backupBeforeMigrate } from './modules/ops/backup.ts'
import { primaryLog, runPrimary } from './cluster.ts'
import { startupBanner, startupTasks, type FirstRun } from './startup.ts'

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

/** Once per start, whatever the number of processes, before anything serves. */
async function migrateWithBackup(config: Config, database: Database): Promise<void> {
  const preMigrate = await backupBeforeMigrate(config, database.db, database.dialect)
  if (preMigrate) console.log(`Backed up the database before migrating it: ${preMigrate}`)
  await migrateAsOwner(config, database)
}

function banner(config: Config, firstRun: FirstRun | null): string {
  const shown = config.host === '0.0.0.0' ? '127.0.0.1' : config.host
  return startupBanner(`http://${shown}:${config.port}/`, firstRun)
}

function openDatabase(config: Config, log: () => (error: Error, where: string) => void): Database {
  return createDatabase(config.databaseUrl, {
    timeouts: config.timeouts,
    preparedStatements: config.dbPreparedStatements,
    onError: (error, where) => log()(error, where),
  })
}

async function main(): Promise<void> {
  const config = loadConfig()
  // Connection failures outside any request go to the app's log once it exists.
  let log: (error: Error, where: string) => void = (error, where) =>
    console.error(`database ${where} error: ${error.message}`)

  if (config.workers > 1 && cluster.isPrimary) {
    // The primary prepares the database once, closes it and only supervises.
    const database = openDatabase(config, () => log)
    await migrateWithBackup(config, database)
    const firstRun = await startupTasks({ log: primaryLog(config.logLevel) }, config, database.db)
    await database.close()
    await runPrimary(config, () => console.log(banner(config, firstRun)))
    return
  }

  const database = openDatabase(config, () => log)
  // A cluster's workers find the database prepared by the primary.
  if (!cluster.isWorker) await migrateWithBackup(config, database)
  // Loaded here, not at the top: a cluster's primary serves nothing and stays small.
  const [{ buildApp }, { scheduled }, { serverJobs }, { installShutdown }] = await Promise.all([
    import('./app.ts'),
    import('./jobs/job.ts'),
    import('./jobs/jobs.ts'),
    import('./shutdown.ts'),
  ])

  const app = await buildApp({
    config,
    db: database.db,
    dialect: database.dialect,
    logger: { level: config.logLevel },
  })
  log = (error, where) => app.log.warn({ err: error, where }, 'database connection error')
  const firstRun = cluster.isWorker ? null : await startupTasks(app, config, database.db)

  const deps = { db: database.db, dialect: database.dialect, clock: systemClock, config, log: app.log }
  const jobs = serverJobs(deps).map((job) => scheduled(job, app.log))
  // Stopped while the app closes, before the database does (shutdown.ts).
  app.addHook('onClose', () => Promise.all(jobs.map((job) => job.stop())).then(() => undefined))
  installShutdown(app, database, config.timeouts)

  await app.listen({ port: config.port, host: config.host })
  for (const job of jobs) job.start()
  if (!cluster.isWorker) console.log(banner(config, firstRun))
}

main().catch((error) => {
  if (error instanceof RlsRefusal) {
    fs.writeSync(2, `Refusing to start: ${error.message}\n`)
    process.exit(2)
  }
  console.error(error)
  process.exit(1)
})
