import { SLUG_PATTERN, slugOf } from '@stake/contract'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { Dialect } from '../../db/database.ts'
import { migrationNames } from '../../db/migrate.ts'
import type { DB } from '../../db/schema.ts'
import { acrossStakes, inStake } from '../../db/stake-scope.ts'
import { DELETE_ORDER, NOT_TRANSFERRED, TRANSFERRED } from '../tables.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { Executor } from '../../db/types.ts'
import { emailKey } from '../users/users.repository.ts'
import { scrubExported, scrubImported } from './stakes.scrub.ts'
import { insertStake } from './stakes.repository.ts'
import { defaultSettings } from './stakes.service.ts'

/**
 * A stake moved between deployments (docs/api-reference.md §14): `stake
 * export` writes every row of one stake as JSON, `stake import` makes them a
 * new stake with new ids, every reference kept; `stake delete` removes every
 * row of one stake.
 *
 * Never exported (sessions, tokens and secrets): sessions and their retired
 * tokens, calendar-feed tokens (speaking_feeds), booking links with their
 * bookings (appointment_offers, appointments, appointment_blocks), users'
 * password hashes and webhooks' signing secrets; mail bodies and webhook URLs
 * are emptied (stakes.scrub.ts). Imported users therefore have no usable
 * password and must change it at their first sign-in (the operator's
 * `reset-password` gives one, an administrator's password reset the rest);
 * imported webhooks get a new secret (the stake's administrators see a webhook's
 * secret only when they create it: they replace the webhook to learn one), and
 * no address: they stay silent until it is entered again.
 */

type Row = Record<string, unknown>

/** Stake-owned tables whose rows other rows name by `id`: their ids are renumbered through a map. */
type Referenced = 'users' | 'wards' | 'callings' | 'proposals' | 'webhooks'

/**
 * Every exported table with how it is copied, parents before children (the
 * order of an import), and the stake-owned tables that are never exported:
 * both from the tables' declarations (`<domain>.tables.ts`, gathered in
 * modules/tables.ts).
 */
const TRANSFER_TABLES = TRANSFERRED as readonly (Omit<(typeof TRANSFERRED)[number], 'refs'> & {
  refs?: Record<string, Referenced>
})[]
export { NOT_TRANSFERRED }

const REFERENCED: readonly Referenced[] = [...new Set(TRANSFER_TABLES.flatMap((s) => Object.values(s.refs ?? {})))]

/** Id-bearing keys inside JSON columns (a proposal's releases, an audit entry's detail) → the table they name. */
const JSON_ID_KEYS: Record<string, Referenced> = {
  user_id: 'users',
  high_councilor_id: 'users',
  submitter: 'users',
  ward_id: 'wards',
  calling_id: 'callings',
  proposal_id: 'proposals',
  webhook_id: 'webhooks',
}

/** What an audit entry's target_id names, by target_type. */
const AUDIT_TARGETS: Record<string, Referenced> = {
  user: 'users',
  calling: 'callings',
  ward: 'wards',
  proposal: 'proposals',
  webhook: 'webhooks',
}

const EXPORT_FORMAT = 'stake-export'
const EXPORT_VERSION = 1

const SETTINGS = [
  'timezone',
  'language',
  'sp_approvals_required',
  'hc_approvals_required',
  'high_council_seats',
] as const

export interface StakeExport {
  format: typeof EXPORT_FORMAT
  version: typeof EXPORT_VERSION
  /** The newest migration of the exporting deployment: an older deployment refuses the file. */
  schema: string
  exported_at: string
  stake: {
    name: string
    /** Its address on the exporting deployment: kept on import when free here (absent in older files). */
    slug?: string
    timezone: string
    language: string
    sp_approvals_required: number
    hc_approvals_required: number
    high_council_seats: number
    created_at: string
    updated_at: string
  }
  tables: Record<string, Row[]>
}

/** An operator's mistake: one line on stderr, exit code 1, nothing written. */
export class TransferError extends Error {}

async function findStake(db: Executor, stakeId: number) {
  return db.selectFrom('stakes').selectAll().where('id', '=', stakeId).executeTakeFirst()
}

/** Every stake: id, name, users, proposals, created (`stake list`). */
export async function listStakes(db: Kysely<DB>) {
  return acrossStakes(() =>
    db
      .selectFrom('stakes as s')
      .select((eb) => [
        's.id',
        's.name',
        's.created_at',
        eb
          .selectFrom('users')
          .whereRef('users.stake_id', '=', 's.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('users'),
        eb
          .selectFrom('proposals')
          .whereRef('proposals.stake_id', '=', 's.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('proposals'),
      ])
      .orderBy('s.id')
      .execute(),
  ).then((rows) => rows.map((r) => ({ ...r, users: Number(r.users ?? 0), proposals: Number(r.proposals ?? 0) })))
}

/** Every exported row of stake `stakeId`, read in one transaction (one consistent picture). */
export async function exportStake(
  db: Kysely<DB>,
  dialect: Dialect,
  config: Config,
  stakeId: number,
  now: string,
): Promise<StakeExport> {
  const schema = (await migrationNames()).at(-1)!
  return withTransaction(
    db,
    async (trx) => {
      const stake = await findStake(trx, stakeId)
      if (!stake) throw new TransferError(`No stake ${stakeId} (npm run cli -- stake list shows them)`)
      // A stake that still follows the environment exports the settings it has now.
      const settings = stake.settings_from_env ? defaultSettings(config) : stake
      const tables: Record<string, Row[]> = {}
      await inStake(stakeId, async () => {
        for (const spec of TRANSFER_TABLES) {
          let query = trx.selectFrom(spec.table).selectAll()
          for (const column of spec.orderBy) query = query.orderBy(column as never)
          const rows = (await query.execute()) as Row[]
          tables[spec.table] = rows.map((row) => {
            const out: Row = {}
            for (const [column, value] of Object.entries(row)) {
              if (column === 'stake_id' || spec.omit?.includes(column)) continue
              out[column] = spec.booleans?.includes(column) && value !== null ? Boolean(value) : value
            }
            return scrubExported(spec.table, out)
          })
        }
      })
      return {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        schema,
        exported_at: now,
        stake: {
          name: stake.name,
          slug: stake.slug,
          ...Object.fromEntries(SETTINGS.map((k) => [k, settings[k]])),
          created_at: stake.created_at,
          updated_at: stake.updated_at,
        } as StakeExport['stake'],
        tables,
      }
    },
    dialect === 'postgres' ? { isolation: 'repeatable read' } : {},
  )
}

/** Checks the shape of an export file before anything is written. */
export async function parseExport(text: string): Promise<StakeExport> {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new TransferError('The file is not JSON (expected the output of `stake export`)')
  }
  const file = data as Partial<StakeExport> | null
  if (!file || typeof file !== 'object' || file.format !== EXPORT_FORMAT) {
    throw new TransferError('The file is not a stake export (expected the output of `stake export`)')
  }
  if (file.version !== EXPORT_VERSION) throw new TransferError(`Unsupported export version ${String(file.version)}`)
  const known = await migrationNames()
  if (typeof file.schema !== 'string' || !known.includes(file.schema)) {
    throw new TransferError(
      `The file comes from a newer version of the service (schema ${String(file.schema)}); upgrade this deployment first`,
    )
  }
  const stake = file.stake
  if (!stake || typeof stake.name !== 'string' || !stake.name.trim()) throw new TransferError('The file has no stake')
  if (!file.tables || typeof file.tables !== 'object') throw new TransferError('The file has no tables')
  const names = new Set(TRANSFER_TABLES.map((s) => s.table as string))
  for (const [name, rows] of Object.entries(file.tables)) {
    if (!names.has(name)) throw new TransferError(`The file has an unknown table "${name}"`)
    if (!Array.isArray(rows)) throw new TransferError(`The file's table "${name}" is not a list`)
  }
  return file as StakeExport
}

export interface ImportOptions {
  /** A new name for the stake (default: the exported one). */
  name?: string
  /** The hash every imported user gets: of a password nobody knows. */
  unusablePasswordHash: string
  now: string
}

export interface ImportResult {
  stakeId: number
  counts: Record<string, number>
}

/**
 * Makes `file` a new stake in one transaction: new ids throughout, every
 * reference mapped to the new ids (foreign keys, a proposal's releases, the
 * ids an audit entry names). Users get `force_password_reset` and an unusable
 * password; webhooks a new secret. An email already used on this deployment
 * refuses the whole import.
 */
export async function importStake(
  db: Kysely<DB>,
  file: StakeExport,
  options: ImportOptions & { newSecret: () => string },
): Promise<ImportResult> {
  const users = file.tables.users ?? []
  // Roster-only people (no email) take no address.
  const keys = users.flatMap((u) => (typeof u.email === 'string' ? [emailKey(u.email)] : []))
  const taken: string[] = []
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500)
    const rows = await acrossStakes(() =>
      db.selectFrom('users').select('email').where('email_key', 'in', chunk).execute(),
    )
    for (const r of rows) if (r.email !== null) taken.push(r.email)
  }
  if (taken.length) {
    throw new TransferError(
      `Nothing imported: ${taken.length} email(s) already belong to users of this deployment (emails are unique across stakes): ${taken.join(', ')}`,
    )
  }

  return withTransaction(db, async (trx) => {
    const stake = file.stake
    const name = (options.name ?? stake.name).trim()
    const slug = typeof stake.slug === 'string' && SLUG_PATTERN.test(stake.slug) ? stake.slug : slugOf(name)
    const stakeId = await insertStake(
      trx,
      {
        name,
        timezone: stake.timezone,
        language: stake.language,
        sp_approvals_required: stake.sp_approvals_required,
        hc_approvals_required: stake.hc_approvals_required,
        high_council_seats: stake.high_council_seats,
        settings_from_env: false,
        created_at: stake.created_at ?? options.now,
        updated_at: stake.updated_at ?? options.now,
      },
      slug,
    )
    const maps = Object.fromEntries(REFERENCED.map((t) => [t, new Map<number, number>()])) as Record<
      Referenced,
      Map<number, number>
    >
    const counts: Record<string, number> = {}

    /** The new id of an old one; null for a row that no longer exists (an id a log entry kept). */
    const mapped = (table: Referenced, old: unknown): number | null =>
      typeof old === 'number' ? (maps[table].get(old) ?? null) : null

    const remapJson = (value: unknown, key: string | null): unknown => {
      const target = key === null ? undefined : JSON_ID_KEYS[key]
      if (target && typeof value === 'number') return mapped(target, value)
      if (Array.isArray(value)) return value.map((v) => remapJson(v, null))
      if (value && typeof value === 'object') {
        const entries = Object.entries(value as Row)
        // {from, to} of a changed id field: both ends are ids of the same table.
        if (target) return Object.fromEntries(entries.map(([k, v]) => [k, remapJson(v, key)]))
        return Object.fromEntries(entries.map(([k, v]) => [k, remapJson(v, k)]))
      }
      return value
    }

    await inStake(stakeId, async () => {
      for (const spec of TRANSFER_TABLES) {
        const rows = file.tables[spec.table] ?? []
        counts[spec.table] = rows.length
        const prepared = rows.map((row) => {
          const out: Row = {}
          for (const [column, value] of Object.entries(scrubImported(spec.table, row))) {
            if (column === 'stake_id' || column === 'id' || spec.omit?.includes(column)) continue
            const ref = spec.refs?.[column]
            if (ref && value !== null) {
              const to = mapped(ref, value)
              if (to === null && !(spec.table === 'audit_log' || spec.table === 'webhook_deliveries')) {
                throw new TransferError(
                  `The file is inconsistent: ${spec.table}.${column} names a missing row ${String(value)}`,
                )
              }
              out[column] = to
            } else out[column] = value
          }
          if (spec.table === 'users') {
            out.password_hash = options.unusablePasswordHash
            out.force_password_reset = true
          }
          if (spec.table === 'webhooks') out.secret = options.newSecret()
          if (spec.table === 'proposals' && typeof out.releases === 'string') {
            out.releases = JSON.stringify(remapJson(JSON.parse(out.releases), null))
          }
          if (spec.table === 'audit_log') {
            const target = typeof out.target_type === 'string' ? AUDIT_TARGETS[out.target_type] : undefined
            out.target_id = target ? mapped(target, out.target_id) : null
            if (typeof out.detail === 'string') out.detail = JSON.stringify(remapJson(JSON.parse(out.detail), null))
          }
          return out
        })
        if (spec.id && (REFERENCED as readonly string[]).includes(spec.table)) {
          const map = maps[spec.table as Referenced]
          for (let i = 0; i < rows.length; i++) {
            const { id } = (await trx
              .insertInto(spec.table)
              .values(prepared[i] as never)
              .returning('id' as never)
              .executeTakeFirstOrThrow()) as { id: number }
            map.set(rows[i]!.id as number, id)
          }
        } else {
          for (let i = 0; i < prepared.length; i += 100) {
            await trx
              .insertInto(spec.table)
              .values(prepared.slice(i, i + 100) as never)
              .execute()
          }
        }
      }
    })
    return { stakeId, counts }
  })
}

/**
 * Deletes every row of stake `stakeId` and the stake itself, in one
 * transaction, children before parents. `confirm` must be the stake's name;
 * the deployment's default stake (DEFAULT_STAKE_ID: anonymous routes answer
 * for it) cannot be deleted.
 */
export async function deleteStake(
  db: Kysely<DB>,
  stakeId: number,
  confirm: string | undefined,
  defaultStakeId: number,
): Promise<{ name: string; counts: Record<string, number> }> {
  const stake = await findStake(db, stakeId)
  if (!stake) throw new TransferError(`No stake ${stakeId} (npm run cli -- stake list shows them)`)
  if (stakeId === defaultStakeId) {
    throw new TransferError(
      `Stake ${stakeId} is this deployment's default stake (DEFAULT_STAKE_ID): anonymous pages answer for it, so it cannot be deleted`,
    )
  }
  if (confirm !== stake.name) {
    throw new TransferError(`Nothing deleted: --confirm must be the stake's exact name, "${stake.name}"`)
  }
  const counts = await withTransaction(db, (trx) =>
    inStake(stakeId, async () => {
      const deleted: Record<string, number> = {}
      for (const table of DELETE_ORDER) {
        const result = await trx.deleteFrom(table).executeTakeFirst()
        deleted[table] = Number(result.numDeletedRows)
      }
      await trx.deleteFrom('stakes').where('id', '=', stakeId).execute()
      return deleted
    }),
  )
  return { name: stake.name, counts }
}
