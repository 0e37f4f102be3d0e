import { sql, type Selectable } from 'kysely'
import type { User, UserSummary } from '@stake/contract'
import type { Dialect } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import type { UsersTable } from './users.tables.ts'
import { containsPattern } from '../../db/like.ts'

export type UserRow = Selectable<UsersTable>

/**
 * The one mapper from a user row to the API shape; never the password hash,
 * only whether there is one. A row read without it (the signed-in user's own,
 * who signed in with a password) is not a roster entry.
 */
export function toUser(
  row: Omit<UserRow, 'password_hash' | 'email_key' | 'stake_id'> & { password_hash?: string | null },
): User {
  return {
    id: row.id,
    email: row.email,
    fname: row.fname,
    lname: row.lname,
    phone: row.phone,
    active: Boolean(row.active),
    force_password_reset: Boolean(row.force_password_reset),
    roster: row.password_hash === null,
    ward_id: row.ward_id ?? null,
    language: row.language === 'es' ? 'es' : 'en',
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export const toUserSummary = (row: Pick<UserRow, 'id' | 'fname' | 'lname' | 'active'>): UserSummary => ({
  id: row.id,
  fname: row.fname,
  lname: row.lname,
  active: Boolean(row.active),
})

export function emailKey(email: string): string
export function emailKey(email: string | null): string | null
export function emailKey(email: string | null): string | null {
  return email === null ? null : email.trim().toLowerCase()
}

export function findUserById(db: Executor, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * True when the user exists; on PostgreSQL the row stays locked until the
 * transaction ends (NO KEY UPDATE: foreign-key checks of inserts referring
 * to the user still pass), so writers of one user's dependent rows — such as
 * the delete-and-insert of direct grants — run one after another.
 */
export async function lockUser(db: Executor, id: number, dialect: Dialect): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('id', '=', id)
  if (dialect === 'postgres') query = query.forNoKeyUpdate()
  return (await query.executeTakeFirst()) !== undefined
}

export function findUserByEmail(db: Executor, email: string) {
  return db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst()
}

export interface NewUser {
  /** Null: a roster-only person. */
  email: string | null
  fname: string
  lname: string
  phone?: string | null
  /** Null: no password sign-in until the user chooses one. */
  password_hash: string | null
  force_password_reset: boolean
  /** The stake's default language when not given (docs/api-reference.md §14). */
  language?: 'en' | 'es'
  now: string
}

export function insertUser(db: Executor, user: NewUser) {
  return db
    .insertInto('users')
    .values({
      email: user.email?.trim() ?? null,
      email_key: emailKey(user.email),
      fname: user.fname,
      lname: user.lname,
      phone: user.phone ?? null,
      password_hash: user.password_hash,
      active: true,
      force_password_reset: user.force_password_reset,
      ...(user.language ? { language: user.language } : {}),
      created_at: user.now,
      updated_at: user.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export interface UserFilter {
  q?: string
  active?: boolean
  /** Whether `q` may match the email (only for callers who see emails). */
  searchEmail: boolean
}

function filtered(db: Executor, filter: UserFilter) {
  let query = db.selectFrom('users')
  if (filter.active !== undefined) query = query.where('active', '=', filter.active)
  const q = filter.q?.trim()
  if (q) {
    const pattern = containsPattern(q)
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(fname)`, 'like', pattern),
        eb(sql`lower(lname)`, 'like', pattern),
        eb(sql`lower(fname || ' ' || lname)`, 'like', pattern),
        ...(filter.searchEmail ? [eb('email_key', 'like', pattern)] : []),
      ]),
    )
  }
  return query
}

export async function listUsers(db: Executor, filter: UserFilter, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, filter)
      .selectAll()
      .orderBy('lname')
      .orderBy('fname')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.n) }
}

export async function updateUser(
  db: Executor,
  id: number,
  changes: Partial<{
    email: string | null
    fname: string
    lname: string
    phone: string | null
    active: boolean
    password_hash: string | null
    force_password_reset: boolean
    language: 'en' | 'es'
  }>,
  now: string,
) {
  const values: Record<string, unknown> = { ...changes, updated_at: now }
  if (changes.email !== undefined) {
    values.email = changes.email?.trim() ?? null
    values.email_key = emailKey(changes.email)
  }
  return db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst()
}
