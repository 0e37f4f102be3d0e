import crypto from 'node:crypto'
import fs from 'node:fs'
import { Email } from '@stake/contract'
import { Value } from 'typebox/value'
import type { CliCommand } from '../../cli.types.ts'
import type { Config } from '../../config.ts'
import { systemClock } from '../../clock.ts'
import { isUniqueViolation, type Database } from '../../db/database.ts'
import { PasswordHasher, randomPassword } from '../auth/passwords.ts'
import { hashSecret } from '../auth/tokens.ts'
import { openStake } from './stakes.service.ts'
import { deleteStake, exportStake, importStake, listStakes, parseExport, TransferError } from './stakes.transfer.ts'
import { createSignupCode } from './signup.repository.ts'

const USAGE = `stake create --name N --admin-email E [--admin-fname F --admin-lname L] [--json]
  stake list [--json]
  stake export <id>                         (JSON on stdout; no sessions, tokens, password hashes or secrets)
  stake import <file> [--name N] [--json]   (a new stake; its users must set a password)
  stake delete <id> --confirm "<name>"
  stake signup-code [--uses N] [--json]     (a code for POST /stakes)`

/** Takes `--name value` out of `args`; a flag without its value is a usage error. */
function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  if (i === -1) return undefined
  const value = args[i + 1]
  if (value === undefined || value.startsWith('--')) throw new TransferError(`${name} needs a value`)
  args.splice(i, 2)
  return value
}

function flag(args: string[], name: string): boolean {
  const i = args.indexOf(name)
  if (i === -1) return false
  args.splice(i, 1)
  return true
}

function positiveInt(text: string | undefined, what: string): number {
  const n = Number(text)
  if (!text || !Number.isInteger(n) || n < 1) throw new TransferError(`${what} must be a positive whole number`)
  return n
}

const print = (value: unknown) => console.log(JSON.stringify(value))

async function create({ db, dialect }: Database, args: string[], config: Config): Promise<number> {
  const name = option(args, '--name')?.trim()
  const email = option(args, '--admin-email')?.trim()
  const fname = option(args, '--admin-fname')?.trim() || 'Stake'
  const lname = option(args, '--admin-lname')?.trim() || 'Administrator'
  const json = flag(args, '--json')
  if (!name || name.length > 100) throw new TransferError('stake create needs --name (1–100 characters)')
  if (!email || !Value.Check(Email, email))
    throw new TransferError('stake create needs --admin-email with an email address')
  if (fname.length > 100 || lname.length > 100) throw new TransferError('names are at most 100 characters')
  const password = randomPassword()
  const password_hash = await new PasswordHasher(config.argon2).hash(password)
  let stakeId: number
  try {
    ;({ stakeId } = await openStake(
      db,
      dialect,
      config,
      { name, admin: { email, fname, lname, password_hash, force_password_reset: true } },
      systemClock.iso(),
      { source: 'operator' },
    ))
  } catch (error) {
    if (isUniqueViolation(error))
      throw new TransferError(`A user with email ${email} already exists on this deployment`)
    throw error
  }
  if (json) print({ stake_id: stakeId, admin_email: email, one_time_password: password })
  else {
    console.log(`Created stake ${stakeId} "${name}".`)
    console.log(`Its administrator <${email}> signs in with the one-time password: ${password}`)
    console.log('(it must be changed at the first sign-in)')
  }
  return 0
}

async function list({ db }: Database, args: string[]): Promise<number> {
  const rows = await listStakes(db)
  if (flag(args, '--json')) {
    print(rows)
    return 0
  }
  console.log(['id', 'name', 'users', 'proposals', 'created'].join('\t'))
  for (const r of rows) console.log([r.id, r.name, r.users, r.proposals, r.created_at].join('\t'))
  return 0
}

async function exportCommand({ db, dialect }: Database, args: string[], config: Config): Promise<number> {
  const stakeId = positiveInt(args[0], 'stake export <id>')
  const file = await exportStake(db, dialect, config, stakeId, systemClock.iso())
  process.stdout.write(`${JSON.stringify(file, null, 2)}\n`)
  return 0
}

async function importCommand({ db }: Database, args: string[], config: Config): Promise<number> {
  const name = option(args, '--name')?.trim()
  const json = flag(args, '--json')
  const path = args[0]
  if (!path) throw new TransferError('stake import needs <file> (the output of stake export)')
  if (name !== undefined && (!name || name.length > 100)) throw new TransferError('--name must be 1–100 characters')
  let text: string
  try {
    text = fs.readFileSync(path, 'utf8')
  } catch (error) {
    throw new TransferError(`Cannot read ${path}: ${(error as Error).message}`)
  }
  const file = await parseExport(text)
  // A hash of a password nobody knows: the users set theirs after a reset.
  const unusablePasswordHash = await new PasswordHasher(config.argon2).hash(crypto.randomBytes(32).toString('hex'))
  let result
  try {
    result = await importStake(db, file, {
      name,
      unusablePasswordHash,
      now: systemClock.iso(),
      newSecret: () => crypto.randomBytes(32).toString('base64url'),
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new TransferError('Nothing imported: an email of the file is already in use')
    throw error
  }
  if (json) {
    print({ stake_id: result.stakeId, counts: result.counts })
    return 0
  }
  const { counts } = result
  console.log(
    `Imported stake ${result.stakeId} "${name ?? file.stake.name}": ${counts.users ?? 0} users, ${counts.wards ?? 0} wards, ` +
      `${counts.callings ?? 0} callings, ${counts.proposals ?? 0} proposals.`,
  )
  console.log(
    'Imported users have no password (an export holds none): `npm run cli -- reset-password <email>` gives an\n' +
      'administrator a one-time password; administrators then reset the others in the app.' +
      (counts.webhooks
        ? '\nWebhooks got new signing secrets: recreate them to share a secret with their receivers.'
        : ''),
  )
  return 0
}

async function deleteCommand({ db }: Database, args: string[], config: Config): Promise<number> {
  const confirm = option(args, '--confirm')
  const stakeId = positiveInt(args[0], 'stake delete <id>')
  const { name, counts } = await deleteStake(db, stakeId, confirm, config.defaultStakeId)
  const rows = Object.values(counts).reduce((a, b) => a + b, 0)
  console.log(`Deleted stake ${stakeId} "${name}" and its ${rows} rows.`)
  return 0
}

async function signupCode({ db }: Database, args: string[]): Promise<number> {
  const usesText = option(args, '--uses')
  const uses = usesText === undefined ? 1 : positiveInt(usesText, '--uses')
  const json = flag(args, '--json')
  const code = crypto.randomBytes(18).toString('base64url')
  await createSignupCode(db, hashSecret(code), uses, systemClock.iso())
  if (json) print({ code })
  else {
    console.log(`Signup code (good for ${uses} new stake${uses === 1 ? '' : 's'}): ${code}`)
    console.log('Only its hash is kept: write it down now.')
  }
  return 0
}

const SUBCOMMANDS: Record<string, (database: Database, args: string[], config: Config) => Promise<number>> = {
  create,
  list,
  export: exportCommand,
  import: importCommand,
  delete: deleteCommand,
  'signup-code': signupCode,
}

/** The operator's commands for the stakes of this deployment (docs/api-reference.md §14). */
export const STAKES_CLI: CliCommand[] = [
  {
    name: 'stake',
    usage: 'stake <create|list|export|import|delete|signup-code>',
    description: 'create, list, export, import, delete stakes; signup codes (`stake` alone: details)',
    async run(database, args, config) {
      const [sub, ...rest] = args
      const command = sub ? SUBCOMMANDS[sub] : undefined
      if (!command) {
        console.error(`Usage: npm run cli -- ${USAGE}`)
        return 1
      }
      try {
        return await command(database, rest, config)
      } catch (error) {
        if (!(error instanceof TransferError)) throw error
        console.error(`Error: ${error.message}`)
        return 1
      }
    },
  },
]
