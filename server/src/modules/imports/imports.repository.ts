import type { Kysely } from 'kysely'
import type { ImportKind, Permission } from '@stake/contract'
import type { DB } from '../../db/schema.ts'
import type { Executor } from '../../db/types.ts'
import { acrossStakes } from '../../db/stake-scope.ts'
import { toPermissionSet } from '../users/permissions.repository.ts'
import { emailKey } from '../users/users.repository.ts'
import type { Snapshot } from './plan.ts'

/** The stake as an import sees it: every user, calling (with grants) and slot, in a few queries. */
export async function loadSnapshot(db: Executor, takenEmails: ReadonlySet<string>): Promise<Snapshot> {
  const [users, callings, grants, slots, direct, wards] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'fname', 'lname', 'email', 'phone', 'active', 'ward_id'])
      .orderBy('id')
      .execute(),
    db.selectFrom('callings').select(['id', 'name', 'key', 'system_defined', 'max_slots']).orderBy('id').execute(),
    db.selectFrom('calling_permissions').select(['calling_id', 'permission']).execute(),
    db
      .selectFrom('calling_slots')
      .select(['calling_id', 'slot_id', 'user_id', 'ward_id', 'set_apart'])
      .orderBy('calling_id')
      .orderBy('slot_id')
      .execute(),
    db.selectFrom('user_permissions').select(['user_id', 'permission']).execute(),
    db.selectFrom('wards').select(['id', 'name']).orderBy('id').execute(),
  ])
  const grantsOf = new Map<number, Permission[]>()
  for (const g of grants)
    grantsOf.set(g.calling_id, [...(grantsOf.get(g.calling_id) ?? []), g.permission as Permission])
  const effective = new Map<number, Set<string>>()
  const add = (userId: number, names: Iterable<string>) => {
    const set = effective.get(userId) ?? new Set<string>()
    for (const n of names) set.add(n)
    effective.set(userId, set)
  }
  for (const d of direct) add(d.user_id, [d.permission])
  for (const s of slots) if (s.user_id !== null) add(s.user_id, grantsOf.get(s.calling_id) ?? [])
  return {
    users: users.map((u) => ({
      id: u.id,
      fname: u.fname,
      lname: u.lname,
      email: u.email ?? null,
      phone: u.phone ?? null,
      active: Boolean(u.active),
      ward_id: u.ward_id ?? null,
    })),
    wards,
    callings: callings.map((c) => ({
      id: c.id,
      name: c.name,
      key: c.key ?? null,
      system_defined: Boolean(c.system_defined),
      max_slots: c.max_slots,
      grants: grantsOf.get(c.id) ?? [],
    })),
    slots: slots.map((s) => ({ ...s, ward_id: s.ward_id ?? null, set_apart: s.set_apart ?? null })),
    takenEmails,
    effective: new Map([...effective].map(([id, names]) => [id, toPermissionSet(names)])),
  }
}

export interface NewImport {
  created_by: number
  kind: ImportKind
  ward_id: number | null
  release_missing: boolean
  rows: string
  preview: string
  created_at: string
  expires_at: string
}

export function insertImport(db: Executor, values: NewImport) {
  return db
    .insertInto('imports')
    .values({ ...values, status: 'preview', applied_at: null })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** The importer's own import, unexpired; another importer's is not found (docs/api-reference.md §15). */
export function findOwnImport(db: Executor, id: number, userId: number, now: string) {
  return db
    .selectFrom('imports')
    .selectAll()
    .where('id', '=', id)
    .where('created_by', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst()
}

/** A preview worked out again (an answer to a possible match); only while it is a preview. */
export async function updatePreview(db: Executor, id: number, rows: string, preview: string): Promise<void> {
  await db.updateTable('imports').set({ rows, preview }).where('id', '=', id).where('status', '=', 'preview').execute()
}

/** Marks a preview applied: one conditional write, so of two applies one wins. */
export async function markApplied(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('imports')
    .set({ status: 'applied', applied_at: now })
    .where('id', '=', id)
    .where('status', '=', 'preview')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** The hourly purge: previews past their 24 hours, applied or not. */
export async function purgeExpiredImports(db: Kysely<DB>, now: string): Promise<number> {
  const result = await acrossStakes(() => db.deleteFrom('imports').where('expires_at', '<=', now).executeTakeFirst())
  return Number(result.numDeletedRows)
}

export interface NewPerson {
  email: string | null
  fname: string
  lname: string
  phone: string | null
  ward_id: number | null
}

const CHUNK = 500

/**
 * New people of an import: roster entries without a password and not
 * "must change password" — they cannot sign in until invited
 * (docs/api-reference.md §16), and never when without an email. Multi-row inserts; the rows come back in the order given (by id).
 */
export async function insertPeople(db: Executor, people: NewPerson[], language: string, now: string) {
  const rows: { id: number; email: string | null; fname: string; lname: string }[] = []
  for (let i = 0; i < people.length; i += CHUNK) {
    const chunk = await db
      .insertInto('users')
      .values(
        people.slice(i, i + CHUNK).map((p) => ({
          email: p.email,
          email_key: p.email ? emailKey(p.email) : null,
          fname: p.fname,
          lname: p.lname,
          phone: p.phone,
          ward_id: p.ward_id,
          password_hash: null,
          active: true,
          // A roster entry until invited (docs/api-reference.md §16): no password to change.
          force_password_reset: false,
          language,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning(['id', 'email', 'fname', 'lname'])
      .execute()
    rows.push(...chunk.sort((a, b) => a.id - b.id))
  }
  return rows
}

/** An import's update of a person: the changed fields (names, phone, an email the user had not, the ward). */
export async function updatePerson(
  db: Executor,
  id: number,
  changes: Record<string, { from: string | null; to: string | null }>,
  wardId: number | null | undefined,
  now: string,
): Promise<void> {
  const values: Record<string, unknown> = { updated_at: now }
  if (changes.ward && wardId) values.ward_id = wardId
  for (const field of ['fname', 'lname', 'phone', 'email'] as const) {
    if (changes[field]) values[field] = changes[field].to
  }
  if (changes.email?.to) values.email_key = emailKey(changes.email.to)
  await db.updateTable('users').set(values).where('id', '=', id).execute()
}

/** Seats an import adds to its callings (empty; filled next). */
export async function insertSlots(
  db: Executor,
  slots: { calling_id: number; slot_id: number; ward_id: number | null }[],
): Promise<void> {
  for (let i = 0; i < slots.length; i += CHUNK) {
    await db
      .insertInto('calling_slots')
      .values(slots.slice(i, i + CHUNK))
      .execute()
  }
}
