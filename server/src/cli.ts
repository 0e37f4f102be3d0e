import fs from 'node:fs'
import { PERMISSIONS, type Permission } from '@stake/contract'
import { ConfigError, parseConfig } from './config.ts'
import { createDatabase } from './database.ts'
import { migrateAsOwner } from './rls-guard.ts'
import { PasswordHasher, checkNewPassword, randomPassword } from './modules/auth/passwords.ts'
import { deleteUserSessions } from './modules/auth/sessions.repository.ts'
import { replaceDirectPermissions } from './modules/users/permissions.repository.ts'
import { findUserByEmail, insertUser, updateUser } from './modules/users/users.repository.ts'
import { ValidationFailure } from './errors.ts'
import { systemClock } from './clock.ts'
import { CLI_COMMANDS } from './cli.commands.ts'
import { withTransaction } from './db/transaction.ts'
import { acrossStakes, inStake } from './db/stake-scope.ts'
import { backupCommand } from './modules/ops/backup.ts'
import { applyEnvSettings } from './modules/stakes/stakes.settings.ts'
import { registerSubscribers } from './subscribers.ts'

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   bring the database schema up to date
  create-user <email> <fname> <lname> [--password P] [--permissions a,b]
                                            create a user (must change the password at first sign-in)
  reset-password <email> [--password P]     set a new one-time password and end the user's sessions
  backup [--out DIR]                        write a consistent copy of the database (default BACKUP_DIR); prints its path
  restore <file> --yes                      replace the database with a backup (refused while a server uses it)
${CLI_COMMANDS.map((c) => `  ${c.usage.padEnd(42)}${c.description}`).join('\n')}

Permissions: ${PERMISSIONS.join(', ')}
Uses DATABASE_URL like the server (default sqlite:./data/stake.db).`

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  if (i === -1) return undefined
  const value = args[i + 1]
  args.splice(i, 2)
  return value
}

async function main(argv: string[]): Promise<number> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env')
  const config = parseConfig(process.env)
  const [command, ...args] = argv
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE)
    return command ? 0 : 1
  }
  // Before migrate(): a backup copies the database as it is, a restore must not touch the target first.
  if (command === 'backup' || command === 'restore') return backupCommand(command, args, config)
  // The operator's commands act on the default stake unless they say otherwise
  // (`stake ...` works across stakes; reset-password finds the user's).
  const database = createDatabase(config.databaseUrl, {
    timeouts: config.timeouts,
    preparedStatements: config.dbPreparedStatements,
    fallbackScope: { stakeId: config.defaultStakeId },
  })
  registerSubscribers()
  try {
    await migrateAsOwner(config, database)
    // As at the server's start: a stake that follows the environment takes its values (docs/api-reference.md §14).
    await applyEnvSettings(database.db, database.dialect, config, systemClock.iso())
    const hasher = new PasswordHasher(config.argon2)
    const now = systemClock.iso()
    switch (command) {
      case 'migrate':
        console.log('Database is up to date.')
        return 0
      case 'create-user': {
        const password = option(args, '--password')
        const permissions = (option(args, '--permissions') ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)
        const [email, fname, lname] = args
        if (!email || !fname || !lname) throw new UsageError('create-user needs <email> <fname> <lname>')
        const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p))
        if (unknown.length) throw new UsageError(`unknown permission(s): ${unknown.join(', ')}`)
        if (password) checkNewPassword(password, 'password')
        const chosen = password ?? randomPassword()
        const password_hash = await hasher.hash(chosen) // outside: the transaction may run again
        const user = await withTransaction(database.db, async (trx) => {
          const row = await insertUser(trx, { email, fname, lname, password_hash, force_password_reset: true, now })
          await replaceDirectPermissions(trx, row.id, permissions as Permission[])
          return row
        })
        console.log(`Created user ${user.id} <${user.email}>${password ? '' : ` with one-time password: ${chosen}`}`)
        return 0
      }
      case 'reset-password': {
        const password = option(args, '--password')
        const [email] = args
        if (!email) throw new UsageError('reset-password needs <email>')
        const user = await acrossStakes(() => findUserByEmail(database.db, email))
        if (!user) throw new UsageError(`no user with email ${email}`)
        if (password) checkNewPassword(password, 'password')
        const chosen = password ?? randomPassword()
        const password_hash = await hasher.hash(chosen)
        await inStake(user.stake_id, () =>
          withTransaction(database.db, async (trx) => {
            await updateUser(trx, user.id, { password_hash, force_password_reset: true, active: true }, now)
            await deleteUserSessions(trx, user.id)
          }),
        )
        console.log(
          `Password reset for <${user.email}>${password ? '' : `; one-time password: ${chosen}`} (must be changed at sign-in)`,
        )
        return 0
      }
      default: {
        const extra = CLI_COMMANDS.find((c) => c.name === command)
        if (!extra) throw new UsageError(`unknown command "${command}"`)
        return await extra.run(database, args, config)
      }
    }
  } finally {
    await database.close()
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError || error instanceof ConfigError)
      console.error(`Error: ${error.message}\n\n${USAGE}`)
    else if (error instanceof ValidationFailure) console.error(`Error: ${error.errors.map((e) => e.msg).join('; ')}`)
    else if ((error as { code?: string }).code?.includes('UNIQUE') || (error as { code?: string }).code === '23505')
      console.error('Error: a user with this email already exists')
    else console.error(error)
    process.exit(1)
  },
)
