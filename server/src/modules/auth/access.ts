import type { Kysely } from 'kysely'
import type { HeldCalling, Permission, User } from '@stake/contract'
import type { DB } from '../../db/schema.ts'
import { VersionedCache } from '../../db/versioned-cache.ts'
import { listHeldSlots } from '../callings/slots.repository.ts'
import { parsePermissionList } from '../users/permissions.repository.ts'
import { toUser } from '../users/users.repository.ts'
import { findUserAccess, liveSessionVersion } from './sessions.repository.ts'

/** A signed-in user's record and rights, current for one auth_version. */
export interface Access {
  user: User
  permissions: ReadonlySet<Permission>
  /** The slots the user holds: read on first use (GET /auth/me), then kept with the rest. */
  callings: Promise<HeldCalling[]> | null
  /** GET /auth/me, serialized: built on first use, then kept with the rest. */
  profile: Promise<Buffer> | null
}

/**
 * The per-request auth check (contract §3), with what it learns about a user
 * kept between requests.
 *
 * Every request runs one indexed query that checks its session and user (the
 * session exists, belongs to the token's user and has not expired; the user
 * is active), so logout, a password change and deactivation stop an access
 * token at once. The same query reads `auth_version`, a counter that database
 * triggers bump in every transaction changing users, direct grants, slots or
 * callings (migration 20261123000100_auth_version). The user's record,
 * effective permissions and held slots are kept per user with that version
 * (db/versioned-cache.ts) and reused only while it is unchanged: a kept entry
 * is never older than the database, on every instance sharing it.
 */
export class AccessCache {
  private readonly entries = new VersionedCache<number, Access | null>(1000)

  constructor(private readonly db: Kysely<DB>) {}

  /** The caller's access, or null when the session or user does not pass the check. */
  async check(sessionId: string, userId: number, now: string): Promise<Access | null> {
    const version = await liveSessionVersion(this.db, sessionId, userId, now)
    if (version === undefined) return null
    return this.entries.obtain(userId, version, () => this.read(userId))
  }

  /** Null only for a user row deleted since the session check (a deletion bumps the version too). */
  private async read(userId: number): Promise<Access | null> {
    const row = await findUserAccess(this.db, userId)
    if (!row) return null
    return { user: toUser(row), permissions: parsePermissionList(row.permissions), callings: null, profile: null }
  }

  /** The slots the user holds, as of the entry's version or later. */
  callings(access: Access): Promise<HeldCalling[]> {
    return keep(access, 'callings', () => listHeldSlots(this.db, access.user.id))
  }

  /** The serialized profile (GET /auth/me) of the entry: `build` runs once per entry. */
  profile(access: Access, build: () => Promise<Buffer>): Promise<Buffer> {
    return keep(access, 'profile', build)
  }
}

/** Reads a value once per entry; a failed read is not kept. */
function keep<F extends 'callings' | 'profile'>(access: Access, field: F, read: () => NonNullable<Access[F]>): NonNullable<Access[F]> {
  const kept = access[field]
  if (kept) return kept as NonNullable<Access[F]>
  const value = read()
  access[field] = value
  value.catch(() => {
    if (access[field] === value) access[field] = null
  })
  return value
}
