import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Config } from './config.ts'
import type { DB } from './db/schema.ts'
import { ensureBootstrapAdmin } from './modules/auth/bootstrap.ts'
import { PasswordHasher } from './modules/auth/passwords.ts'

/** Work done once per start, after migrations: the bootstrap administrator. */
export async function startupTasks(app: FastifyInstance, config: Config, db: Kysely<DB>): Promise<void> {
  const admin = await ensureBootstrapAdmin(db, new PasswordHasher(config.argon2), config.adminEmail, config.initialAdminPassword, new Date())
  if (admin.created) {
    app.log.info({ email: config.adminEmail }, 'bootstrap administrator created')
    if (admin.generatedPassword) {
      // Printed once, to the console only (never to the JSON log).
      console.log(
        `\n  Bootstrap administrator: ${config.adminEmail}\n  One-time password:       ${admin.generatedPassword}\n` +
          `  Sign in and choose your own password; this one is not shown again.\n`,
      )
    }
  }
}
