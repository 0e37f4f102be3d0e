import type { Generated, SqlBool } from 'kysely'
import { stakeTable, type RowsOf } from '../../db/table.ts'

/**
 * Table types. Timestamps are ISO 8601 UTC strings (`...Z`) on both databases,
 * so they compare correctly as text and need no per-dialect parsing. Booleans
 * are real booleans on PostgreSQL and 0/1 on SQLite: read them with Boolean().
 */
export interface UsersTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  id: Generated<number>
  /** Null for a roster-only person (holds callings, never signs in). */
  email: string | null
  /** lower(trim(email)); unique when present — the case-insensitive identity. */
  email_key: string | null
  fname: string
  lname: string
  /** Null until the user chooses one (invited, or roster-only): no password sign-in. */
  password_hash: string | null
  /** As given (an LCR report or an administrator); null when unknown. */
  phone: Generated<string | null>
  active: SqlBool
  force_password_reset: SqlBool
  /** The person's ward (an LCR member list's unit column); null when unknown. */
  ward_id: Generated<number | null>
  /** 'en' | 'es': the client's and the notifications' language (default 'en'). */
  language: Generated<string>
  created_at: string
  updated_at: string
}

export interface UserPermissionsTable {
  /** The stake the row belongs to (db/stake-scope.ts fills it in). */
  stake_id: Generated<number>
  user_id: number
  permission: string
}

/** The users domain's tables (db/table.ts); a user names a ward, so wards come first. */
export const usersTables = {
  users: stakeTable<UsersTable>({
    transfer: {
      id: true,
      omit: ['password_hash'],
      refs: { ward_id: 'wards' },
      booleans: ['active', 'force_password_reset'],
      orderBy: ['id'],
    },
  }),
  user_permissions: stakeTable<UserPermissionsTable>({
    transfer: { refs: { user_id: 'users' }, orderBy: ['user_id', 'permission'] },
  }),
}
export type UsersTables = RowsOf<typeof usersTables>
