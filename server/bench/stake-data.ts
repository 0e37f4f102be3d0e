// The benchmark's stake as plain rows, generated (not inserted) here: the same
// seed gives the same stake on SQLite and PostgreSQL. A deterministic
// generator, so two runs measure the same data.
import { PERMISSIONS } from '@stake/contract'

export const WARDS = 30
export const USERS = 600
export const HIGH_COUNCIL_SEATS = 12
export const YEARS = 10
/** Everyone signs in with this password (hashed once with the configured argon2 parameters). */
export const PASSWORD = 'bench-stake-password-1'
export const ADMIN_EMAIL = 'admin@bench.example.org'

/** Who holds which seat (user ids are fixed so scenarios can name them). */
export const ADMIN_ID = 1
export const PRESIDENCY = {
  stake_president: 2,
  stake_first_counselor: 3,
  stake_second_counselor: 4,
  stake_executive_secretary: 5,
  stake_clerk: 6,
}
export const firstCouncilor = 7
export const firstBishop = firstCouncilor + HIGH_COUNCIL_SEATS
export const bishopOf = (wardId: number) => firstBishop + wardId - 1

export interface StakeSize {
  open: number
  closed: number
  /** The closed ones all closed within this many days (the board's window), instead of over the years. */
  closedWithinDays?: number
}

/** A small PRNG (mulberry32): reproducible data without a dependency. */
export function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
  return { next, int, pick }
}
export type Random = ReturnType<typeof random>

const words = (text: string, separator = ' ') => text.split(separator)
export const FIRST_NAMES = words(
  'James Mary John Patricia Robert Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Nancy Matthew Lisa Anthony Betty Mark Margaret Steven Sandra Paul Ashley Andrew Emily Joshua Kimberly Kenneth Donna Kevin Michelle Brian Carol George Amanda Timothy Melissa Ronald Deborah Jason Stephanie Élodie Søren José Zoë',
)
export const LAST_NAMES = words(
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Christensen Jensen Larsen Petersen Olsen Hansen Sørensen Müller Dubois Lefèvre',
)
export const CALLINGS = words(
  'Primary teacher, Sunday School teacher, Elders quorum president, Relief Society president, Young Women president, Primary president, Ward clerk, Ward executive secretary, Ward mission leader, Temple and family history leader, Nursery leader, Music director, Organist, Librarian, Activities committee chair, Elders quorum secretary, Relief Society counselor, Young Women adviser, Sunday School president, Bishopric first counselor, Bishopric second counselor, Ward employment specialist, Ministering coordinator, Family history consultant, Gospel doctrine teacher, Seminary teacher, Scout leader, Choir director, Building scheduler, Welfare specialist',
  ', ',
)
const PLACES = words(
  'Maple Cedar Oak Willow Aspen Birch Pine Spruce Elm Juniper River Lake Hill Canyon Meadow Valley Ridge Brook Harbor Summit Highland Sunset Park Garden Orchard Prairie Mesa Bay Forest Stone',
)

const DAY = 86_400_000
export const iso = (ms: number) => new Date(ms).toISOString()

/** Users, wards, seats, grants and ten years of speaking overrides and topics. */
export function stakeRows(nowMs: number, passwordHash: string) {
  const rng = random(7)
  const now = iso(nowMs)
  const users = Array.from({ length: USERS }, (_, i) => {
    const id = i + 1
    const email = id === ADMIN_ID ? ADMIN_EMAIL : `member${id}@bench.example.org`
    const joined = iso(nowMs - rng.int(30, YEARS * 365) * DAY)
    return {
      id,
      email,
      email_key: email.toLowerCase(),
      fname: id === ADMIN_ID ? 'Stake' : rng.pick(FIRST_NAMES),
      lname: id === ADMIN_ID ? 'Administrator' : rng.pick(LAST_NAMES),
      password_hash: passwordHash,
      active: id % 50 !== 0,
      force_password_reset: false,
      created_at: joined,
      updated_at: joined,
    }
  })
  const wards = Array.from({ length: WARDS }, (_, i) => {
    const name = `${PLACES[i]} Ward`
    return {
      id: i + 1,
      name,
      name_key: name.toLowerCase(),
      start_time: 540 + 30 * (i % 8),
      created_at: now,
      updated_at: now,
    }
  })
  // The administrator holds every permission directly; ward clerks may submit; two may manage speaking.
  const grants = [
    ...PERMISSIONS.map((permission) => ({ user_id: ADMIN_ID, permission })),
    ...Array.from({ length: WARDS }, (_, i) => ({ user_id: firstBishop + WARDS + i, permission: 'proposals.submit' })),
    { user_id: 90, permission: 'speaking.manage' },
    { user_id: 91, permission: 'speaking.manage' },
  ]
  return { users, wards, grants, ...speakingRows(nowMs, rng) }
}

/** Ten years of months: three seats pinned per month (distinct wards, sometimes "not speaking"), and every month's topic. */
function speakingRows(nowMs: number, rng: Random) {
  const lastYear = new Date(nowMs).getUTCFullYear()
  const overrides: { year: number; month: number; slot_id: number; ward_id: number | null; updated_at: string }[] = []
  const topics: { year: number; month: number; topic: string; reference: string | null; updated_at: string }[] = []
  for (let year = lastYear - YEARS + 1; year <= lastYear; year++) {
    for (let month = 1; month <= 12; month++) {
      const at = iso(Date.UTC(year, month - 1, 1) - 20 * DAY)
      const seats = new Set<number>()
      const wards = new Set<number>()
      while (seats.size < 3) seats.add(rng.int(1, HIGH_COUNCIL_SEATS))
      for (const slot_id of seats) {
        let ward: number | null = rng.next() < 0.15 ? null : rng.int(1, WARDS)
        while (ward !== null && wards.has(ward)) ward = rng.int(1, WARDS)
        if (ward !== null) wards.add(ward)
        overrides.push({ year, month, slot_id, ward_id: ward, updated_at: at })
      }
      topics.push({
        year,
        month,
        topic: `Topic ${year}-${month}: ${rng.pick(CALLINGS)}`,
        reference: month % 3 ? `Reference ${month}` : null,
        updated_at: at,
      })
    }
  }
  return { overrides, topics }
}
