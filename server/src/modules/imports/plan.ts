import type { ImportChange, ImportKind, ImportProblem, ImportSummary, Permission } from '@stake/contract'
import { maySeatSelf, seatRequirements, unseatable } from '../callings/callings.policy.ts'
import { mayAdminister } from '../users/users.policy.ts'
import { baseLastName } from './names.ts'
import type { ReportRow } from './rows.ts'
import { fold, scopeOfRow, wardNamed, type SnapshotWard } from './units.ts'

/**
 * What importing a report would change (docs/api-reference.md §15), worked
 * out from the report and a snapshot of the stake: pure, so the preview and
 * the apply compute it the same way — apply computes it again in its
 * transaction and refuses (409 stale_import) when it differs from the preview.
 */

interface SnapshotUser {
  id: number
  fname: string
  lname: string
  email: string | null
  phone: string | null
  active: boolean
  ward_id: number | null
}

interface SnapshotCalling {
  id: number
  name: string
  key: string | null
  system_defined: boolean
  max_slots: number
  grants: Permission[]
}

interface SnapshotSlot {
  calling_id: number
  slot_id: number
  user_id: number | null
  ward_id: number | null
  set_apart: string | null
}

export interface Snapshot {
  users: SnapshotUser[]
  wards: SnapshotWard[]
  callings: SnapshotCalling[]
  slots: SnapshotSlot[]
  /** Email keys of the report that another stake's user has (emails are unique across the deployment). */
  takenEmails: ReadonlySet<string>
  /** Effective permissions of the users holding any (S2: who may set a user's email). */
  effective: ReadonlyMap<number, ReadonlySet<Permission>>
}

export interface Importer {
  id: number
  permissions: ReadonlySet<Permission>
}

export interface PlanInput {
  kind: ImportKind
  wardId: number | null
  releaseMissing: boolean
  rows: ReportRow[]
  /** The importer's answers to possible matches, by the person's first row. */
  decisions?: Record<number, 'accept' | 'reject'>
}

/** A change as the apply needs it: the public change plus references to what the apply creates. */
export type PlannedChange = ImportChange & {
  /** The person (index into `persons`) a user change or a fill is about. */
  person?: number
  /** A fill of a slot the apply creates. */
  new_slot?: boolean
}

interface Person {
  userId: number | null
  fname: string
  lname: string
  email: string | null
  phone: string | null
  active: boolean
  ambiguous: boolean
}

export interface Plan {
  summary: ImportSummary
  changes: PlannedChange[]
  problems: ImportProblem[]
  persons: Person[]
}

const emailKeyOf = (email: string): string => email.trim().toLowerCase()

/** Case-, accent- and spacing-insensitive. */
const nameKeyOf = (fname: string, lname: string): string => `${fold(fname)}|${fold(lname)}`

const callingKeyOf = (name: string): string => name.trim().toLowerCase()

/** Strips the apply's references: what the preview shows and stores. */
export const publicChange = ({ person: _p, new_slot: _n, ...change }: PlannedChange): ImportChange => change

export function plan(input: PlanInput, snapshot: Snapshot, importer: Importer, base: ImportProblem[]): Plan {
  const problems: ImportProblem[] = [...base]
  const skippedRows = new Set<number>()
  const skip = (row: number | null, code: string, message: string) => {
    problems.push({ row, code, message })
    if (row !== null) skippedRows.add(row)
  }

  // People: by email, else by a unique name; one Person per person in the report.
  const byEmail = new Map<string, SnapshotUser>()
  const byName = new Map<string, SnapshotUser[]>()
  const byLastName = usersByLastName(snapshot.users)
  for (const u of snapshot.users) {
    if (u.email) byEmail.set(emailKeyOf(u.email), u)
    const key = nameKeyOf(u.fname, u.lname)
    byName.set(key, [...(byName.get(key) ?? []), u])
  }
  const persons: Person[] = []
  const personOfRow = new Map<number, number>()
  const personByKey = new Map<string, number>()
  const userChanges: PlannedChange[] = []
  const claimedEmails = new Map<string, string>() // email key → name key of the report's person using it
  const matchedUser = new Map<number, number>() // user id → person index

  for (const r of input.rows) {
    // Two people of one name in the report (told apart by age or birth date) are two persons.
    const nameKey = nameKeyOf(r.fname, r.lname) + (r.twin ? `#${r.twin}` : '')
    let email = r.email
    if (email) {
      const claimed = claimedEmails.get(emailKeyOf(email))
      if (claimed !== undefined && claimed !== nameKey) {
        problems.push({
          row: r.row,
          code: 'email_unavailable',
          message: 'Another person in this report has the same email; this person is imported without it',
        })
        email = null
      }
    }
    const key = email ? `e:${emailKeyOf(email)}` : `n:${nameKey}`
    const seen = personByKey.get(key) ?? personByKey.get(`n:${nameKey}`)
    if (seen !== undefined && input.kind === 'members' && !email && persons[seen]!.email === null) {
      // A member list has one row per member: the same name again, with nothing to tell them apart.
      skip(
        r.row,
        'same_name',
        `${r.fname} ${r.lname} is listed twice with nothing to tell them apart (an email, age or birth date); this row is left out`,
      )
      continue
    }
    if (seen !== undefined) {
      personOfRow.set(r.row, seen)
      const p = persons[seen]!
      if (p.ambiguous) skippedRows.add(r.row)
      continue
    }
    if (email) claimedEmails.set(emailKeyOf(email), nameKey)

    let user: SnapshotUser | undefined = email ? byEmail.get(emailKeyOf(email)) : undefined
    const byEmailMatch = user !== undefined
    let ambiguous = false
    if (!user) {
      const candidates = byName.get(nameKeyOf(r.fname, r.lname)) ?? []
      // A twin of the report and a user of that name: which of the two the user is cannot be told.
      if (candidates.length > 1 || (r.twin !== null && candidates.length > 0)) ambiguous = true
      else user = candidates[0]
    }
    // A possible match (a middle name added, a preferred first name): the importer decides; until then
    // the person is planned as that user, so no seat of theirs is released on a guess.
    let candidate: SnapshotUser | null = null
    if (!user && !ambiguous) {
      const near = possibleMatches(byLastName, r.fname, r.lname)
      if (near.length === 1 && !matchedUser.has(near[0]!.id)) {
        candidate = near[0]!
        if (input.decisions?.[r.row] !== 'reject') user = candidate
      }
    }
    const decision = candidate ? (input.decisions?.[r.row] ?? null) : null
    const matchOf = candidate
      ? {
          candidate: { user_id: candidate.id, fname: candidate.fname, lname: candidate.lname },
          ...(decision ? { match: decision === 'accept' ? ('accepted' as const) : ('rejected' as const) } : {}),
        }
      : {}
    if (user && matchedUser.has(user.id)) {
      // Two people of the report are one user (by email and by name): the first row's wins.
      const index = matchedUser.get(user.id)!
      personOfRow.set(r.row, index)
      personByKey.set(key, index)
      continue
    }
    const index = persons.length
    personByKey.set(key, index)
    personOfRow.set(r.row, index)
    const ward = wardNamed(snapshot.wards, r.unit)
    if (ambiguous) {
      persons.push({
        userId: null,
        fname: r.fname,
        lname: r.lname,
        email,
        phone: r.phone,
        active: false,
        ambiguous: true,
      })
      skip(
        r.row,
        'ambiguous_person',
        r.twin !== null
          ? `This report lists two people named ${r.fname} ${r.lname} and the stake has one already: add their emails to the report to tell which is which`
          : `More than one user is named ${r.fname} ${r.lname}; add their email to the report or set it on one of them first`,
      )
      continue
    }
    if (!user) {
      if (email && snapshot.takenEmails.has(emailKeyOf(email))) {
        problems.push({
          row: r.row,
          code: 'email_unavailable',
          message: 'This email cannot be used for a new person here; they are imported without it',
        })
        email = null
      }
      persons.push({
        userId: null,
        fname: r.fname,
        lname: r.lname,
        email,
        phone: r.phone,
        active: true,
        ambiguous: false,
      })
      userChanges.push({
        row: r.row,
        target: 'user',
        action: 'create',
        user_id: null,
        fname: r.fname,
        lname: r.lname,
        email,
        phone: r.phone,
        ...(ward ? { ward_id: ward.id } : {}),
        ...matchOf,
        person: index,
      })
      continue
    }
    matchedUser.set(user.id, index)
    const changes: Record<string, { from: string | null; to: string | null }> = {}
    if (byEmailMatch) {
      if (user.fname !== r.fname) changes.fname = { from: user.fname, to: r.fname }
      if (user.lname !== r.lname) changes.lname = { from: user.lname, to: r.lname }
    } else if (email && user.email && emailKeyOf(user.email) !== emailKeyOf(email)) {
      problems.push({
        row: r.row,
        code: 'email_differs',
        message: `${user.fname} ${user.lname} already has another email; it is left as it is`,
      })
    } else if (email && !user.email) {
      const held = snapshot.effective.get(user.id) ?? new Set<Permission>()
      if (snapshot.takenEmails.has(emailKeyOf(email))) {
        problems.push({ row: r.row, code: 'email_unavailable', message: 'This email cannot be used here; left out' })
      } else if (user.id !== importer.id && !mayAdminister(importer.permissions, held)) {
        problems.push({
          row: r.row,
          code: 'forbidden_user',
          message: `${user.fname} ${user.lname} holds permissions you do not hold; their email is left out`,
        })
      } else changes.email = { from: null, to: email }
    }
    if (r.phone !== null && r.phone !== user.phone) changes.phone = { from: user.phone, to: r.phone }
    if (ward && ward.id !== user.ward_id) {
      const from = snapshot.wards.find((w) => w.id === user.ward_id)?.name ?? null
      changes.ward = { from, to: ward.name }
    }
    persons.push({
      userId: user.id,
      fname: changes.fname?.to ?? user.fname,
      lname: changes.lname?.to ?? user.lname,
      email: changes.email?.to ?? user.email,
      phone: changes.phone?.to ?? user.phone,
      active: user.active,
      ambiguous: false,
    })
    const changed = Object.keys(changes).length > 0
    userChanges.push({
      row: r.row,
      target: 'user',
      action: candidate && !decision ? 'confirm' : changed ? 'update' : 'unchanged',
      user_id: user.id,
      fname: candidate ? r.fname : persons[index]!.fname,
      lname: candidate ? r.lname : persons[index]!.lname,
      ...(changed ? { changes } : {}),
      ...(changes.ward ? { ward_id: ward!.id } : {}),
      ...matchOf,
      person: index,
    })
  }

  const { callingChanges, slotChanges } =
    input.kind === 'callings'
      ? planSlots(input, snapshot, importer, persons, personOfRow, skip)
      : { callingChanges: [], slotChanges: [] }

  const changes = [...userChanges, ...callingChanges, ...slotChanges]
  const count = (target: string, action: string) =>
    changes.filter((c) => c.target === target && c.action === action).length
  const summary: ImportSummary = {
    users: { create: count('user', 'create'), update: count('user', 'update'), unchanged: count('user', 'unchanged') },
    callings: { create: count('calling', 'create') },
    slots: {
      fill: count('slot', 'fill'),
      update: count('slot', 'update'),
      release: count('slot', 'release'),
      unchanged: count('slot', 'unchanged'),
    },
    skipped: skippedRows.size + base.filter((p) => isSkipping(p.code)).length,
  }
  problems.sort((a, b) => (a.row ?? Infinity) - (b.row ?? Infinity))
  return { summary, changes, problems, persons }
}

/** The report's problems that leave a row out (the others only leave a value out). */
const isSkipping = (code: string) =>
  ['missing_name', 'invalid_name', 'invalid_email', 'invalid_calling', 'not_a_name'].includes(code)

type Skip = (row: number | null, code: string, message: string) => void

interface CallingRef {
  id: number | null
  name: string
  key: string | null
  grants: Permission[]
  growable: boolean
  /** Slot scope: a ward's slots, the stake's (null), or every slot (a stake-wide system calling). */
  scope: number | null | 'all'
}

function planSlots(
  input: PlanInput,
  snapshot: Snapshot,
  importer: Importer,
  persons: Person[],
  personOfRow: Map<number, number>,
  skip: Skip,
) {
  const callingsByKey = new Map(snapshot.callings.map((c) => [callingKeyOf(c.name), c]))
  const slotsOf = new Map<number, SnapshotSlot[]>()
  for (const s of snapshot.slots) slotsOf.set(s.calling_id, [...(slotsOf.get(s.calling_id) ?? []), s])
  for (const list of slotsOf.values()) list.sort((a, b) => a.slot_id - b.slot_id)

  const callingChanges: PlannedChange[] = []
  const newCallings = new Map<string, CallingRef>()
  const nextSlot = new Map<string, number>() // calling key → next new slot number
  /** By calling and ward: a stake-level report seats each ward calling in the ward its row names. */
  const groups = new Map<string, { ckey: string; calling: CallingRef; rows: ReportRow[] }>()

  for (const r of input.rows) {
    if (r.calling === null) continue
    const p = persons[personOfRow.get(r.row)!]
    if (!p || p.ambiguous) continue
    const ckey = callingKeyOf(r.calling)
    const existing = callingsByKey.get(ckey)
    const stakeWide = existing !== undefined && existing.system_defined && existing.key !== 'bishop'
    const where = stakeWide || input.wardId !== null ? null : scopeOfRow(snapshot.wards, { ...r, calling: r.calling })
    if (where !== null && where !== 'stake' && 'unnamed' in where) {
      if (existing?.key === 'bishop') {
        skip(r.row, 'needs_ward', 'A Bishop is seated in a ward: choose the ward and import its report')
      } else {
        skip(
          r.row,
          'needs_ward_name',
          `${r.calling} is a ward calling and this row ${where.unnamed}: import the ward's report with its ward chosen`,
        )
      }
      continue
    }
    const wardId = where === null ? input.wardId : where === 'stake' ? null : where.ward
    let calling: CallingRef
    if (existing) {
      calling = {
        id: existing.id,
        name: existing.name,
        key: existing.key,
        grants: existing.grants,
        growable: !existing.system_defined,
        scope: stakeWide ? 'all' : wardId,
      }
    } else {
      calling = { id: null, name: r.calling, key: null, grants: [], growable: true, scope: wardId }
      if (!newCallings.has(ckey)) {
        newCallings.set(ckey, calling)
        callingChanges.push({ row: r.row, target: 'calling', action: 'create', calling_id: null, calling: r.calling })
      } else calling = { ...newCallings.get(ckey)!, scope: wardId }
    }
    const gkey = `${ckey}@${String(calling.scope)}`
    const group = groups.get(gkey) ?? { ckey, calling, rows: [] }
    group.rows.push(r)
    groups.set(gkey, group)
  }

  const mayTouch = (calling: CallingRef, seating: number | null) =>
    unseatable(importer.permissions, seatRequirements(calling.key, calling.grants)).length === 0 &&
    (seating !== importer.id || maySeatSelf(importer.permissions))

  const slotChanges: PlannedChange[] = []
  const releases: PlannedChange[] = []
  /** Slots the report accounts for (kept, refilled), by "calling:slot". */
  const accounted = new Set<string>()
  for (const { ckey, calling, rows } of groups.values()) {
    const all = calling.id === null ? [] : (slotsOf.get(calling.id) ?? [])
    const inScope = all.filter((s) => calling.scope === 'all' || s.ward_id === calling.scope)
    const wanted = new Set<number>() // persons the report seats here
    const seated = new Map<number, SnapshotSlot>() // person → their slot (kept)
    const queue: ReportRow[] = []
    for (const r of rows) {
      const index = personOfRow.get(r.row)!
      if (wanted.has(index)) continue
      wanted.add(index)
      const userId = persons[index]!.userId
      const slot = userId === null ? undefined : inScope.find((s) => s.user_id === userId)
      if (slot) {
        seated.set(index, slot)
        accounted.add(`${slot.calling_id}:${slot.slot_id}`)
        // A kept seat whose set apart the report tells (or tells otherwise) is updated; nothing else of it changes.
        const told = r.set_apart !== null && r.set_apart !== slot.set_apart
        slotChanges.push({
          ...slotChange(
            r,
            told ? 'update' : 'unchanged',
            calling,
            slot.slot_id,
            slot.ward_id,
            persons[index]!,
            userId!,
          ),
          ...(told ? { changes: { set_apart: { from: slot.set_apart, to: r.set_apart } } } : {}),
        })
      } else queue.push(r)
    }
    const wantedUsers = new Set([...wanted].map((i) => persons[i]!.userId).filter((id) => id !== null))
    const free = inScope.filter((s) => s.user_id === null)
    const replaceable = inScope.filter((s) => s.user_id !== null && !wantedUsers.has(s.user_id))
    for (const r of queue) {
      const index = personOfRow.get(r.row)!
      const person = persons[index]!
      if (!person.active) {
        skip(r.row, 'inactive_user', `${person.fname} ${person.lname} is deactivated; reactivate them to seat them`)
        continue
      }
      if (person.userId !== null && all.some((s) => s.user_id === person.userId)) {
        skip(
          r.row,
          'duplicate_seat',
          `${person.fname} ${person.lname} already holds a ${calling.name} seat elsewhere in the stake`,
        )
        continue
      }
      if (!mayTouch(calling, person.userId)) {
        skip(r.row, 'forbidden_seat', `You may not fill this ${calling.name} seat: it carries powers you do not hold`)
        continue
      }
      const target = free.shift() ?? replaceable.shift()
      if (target) {
        accounted.add(`${target.calling_id}:${target.slot_id}`)
        const released = target.user_id === null ? null : snapshot.users.find((u) => u.id === target.user_id)
        slotChanges.push({
          ...slotChange(r, 'fill', calling, target.slot_id, target.ward_id, person, person.userId),
          ...(released
            ? { released_user_id: released.id, released_fname: released.fname, released_lname: released.lname }
            : {}),
          person: index,
        })
      } else if (calling.growable) {
        const top = Math.max(
          nextSlot.get(ckey) ?? 0,
          ...all.map((s) => s.slot_id + 1),
          (snapshot.callings.find((c) => c.id === calling.id)?.max_slots ?? 0) + 1,
          1,
        )
        nextSlot.set(ckey, top + 1)
        const wardId = calling.scope === 'all' ? null : calling.scope
        slotChanges.push({
          ...slotChange(r, 'fill', calling, top, wardId, person, person.userId),
          person: index,
          new_slot: true,
        })
      } else {
        skip(r.row, 'no_free_seat', `Every ${calling.name} seat is taken by someone this report also lists`)
      }
    }
  }

  // release_missing: the ward's (or the stake's) seats whose holder the report does not list.
  if (input.releaseMissing) {
    const byId = new Map(snapshot.callings.map((c) => [c.id, c]))
    for (const s of snapshot.slots) {
      if (s.user_id === null || s.ward_id !== input.wardId || accounted.has(`${s.calling_id}:${s.slot_id}`)) continue
      const c = byId.get(s.calling_id)
      if (!c) continue
      const ref: CallingRef = {
        id: c.id,
        name: c.name,
        key: c.key,
        grants: c.grants,
        growable: false,
        scope: s.ward_id,
      }
      const holder = snapshot.users.find((u) => u.id === s.user_id)
      if (!mayTouch(ref, null)) {
        skip(null, 'forbidden_seat', `You may not release the ${c.name} seat: it carries powers you do not hold`)
        continue
      }
      releases.push({
        row: null,
        target: 'slot',
        action: 'release',
        calling: c.name,
        calling_id: c.id,
        slot_id: s.slot_id,
        ward_id: s.ward_id,
        user_id: s.user_id,
        fname: holder?.fname ?? '',
        lname: holder?.lname ?? '',
      })
    }
  }
  return { callingChanges, slotChanges: [...slotChanges, ...releases] }
}

function slotChange(
  r: ReportRow,
  action: 'fill' | 'update' | 'unchanged',
  calling: CallingRef,
  slotId: number,
  wardId: number | null,
  person: Person,
  userId: number | null,
): PlannedChange {
  return {
    row: r.row,
    target: 'slot',
    action,
    calling: calling.name,
    calling_id: calling.id,
    slot_id: slotId,
    ward_id: wardId,
    user_id: userId,
    fname: person.fname,
    lname: person.lname,
    organization: r.organization,
    sustained: r.sustained,
    set_apart: r.set_apart,
  }
}

const words = (s: string) => fold(s).split(' ').filter(Boolean)

/** The stake's users by their folded last name (suffix aside): possible matches are looked up, not scanned, per row. */
type UsersByLastName = Map<string, SnapshotUser[]>

function usersByLastName(users: SnapshotUser[]): UsersByLastName {
  const index: UsersByLastName = new Map()
  for (const u of users) {
    const key = fold(baseLastName(u.lname))
    index.set(key, [...(index.get(key) ?? []), u])
  }
  return index
}

/**
 * Users the report's name may be without being the same name: the same last
 * name (a suffix aside), and first names where one extends the other — a
 * middle name added ("Raelyn" / "Raelyn Kay") or a preferred short form
 * ("Sam" / "Samuel B").
 */
function possibleMatches(byLast: UsersByLastName, fname: string, lname: string): SnapshotUser[] {
  const mine = words(fname)
  return (byLast.get(fold(baseLastName(lname))) ?? []).filter((u) => {
    if (u.fname === fname) return false
    const theirs = words(u.fname)
    if (nameKeyOf(u.fname, '') === nameKeyOf(fname, '') || mine.length === 0 || theirs.length === 0) return false
    const n = Math.min(mine.length, theirs.length)
    for (let i = 0; i < n; i++) {
      const [a, b] = [mine[i]!, theirs[i]!]
      if (a === b) continue
      // Only the first name may be a short form, and only of three letters or more.
      if (i > 0 || Math.min(a.length, b.length) < 3 || !(a.startsWith(b) || b.startsWith(a))) return false
    }
    return true
  })
}
