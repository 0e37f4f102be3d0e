import type { Stake, StakeBody, StakeSignup } from '@stake/contract'
import { SLUG_LENGTH, SLUG_PATTERN } from '@stake/contract/slugs'

/**
 * The pure part of the stake pages (docs/api-reference.md §14): what the forms hold,
 * their checks before sending, and how the server's refusals read. Errors
 * are translation keys of the `stake` namespace, so this file needs no i18n
 * (and is unit-tested under node: stakeForm.test.ts).
 */

/** The stake's limits (packages/contract/src/stakes.ts). */
export const LIMITS = {
  name: 100,
  slug: SLUG_LENGTH.max,
  sp: { min: 1, max: 3 },
  hc: { min: 1, max: 100 },
  seats: { min: 1, max: 100 },
} as const

/**
 * Time zones the browser knows, with the stake's own first found or added:
 * `Intl.supportedValuesOf` leaves out aliases such as `UTC`, and a stake set
 * to one must still show it selected.
 */
export function timeZoneOptions(current: string, known: readonly string[] = supportedTimeZones()): string[] {
  if (!current || known.includes(current)) return [...known]
  return [current, ...known]
}

function supportedTimeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone')
  } catch {
    return []
  }
}

/** `America/Argentina/Buenos_Aires` → `America / Argentina / Buenos Aires`. */
export function timeZoneLabel(zone: string): string {
  return zone.replaceAll('_', ' ').split('/').join(' / ')
}

/** Number fields are kept as typed, so a half-typed value is not replaced under the cursor. */
export interface StakeValues {
  name: string
  slug: string
  timezone: string
  language: 'en' | 'es'
  sp_approvals_required: string
  hc_approvals_required: string
  high_council_seats: string
}

export function stakeValues(stake: Stake): StakeValues {
  return {
    name: stake.name,
    slug: stake.slug,
    timezone: stake.timezone,
    language: stake.language,
    sp_approvals_required: String(stake.sp_approvals_required),
    hc_approvals_required: String(stake.hc_approvals_required),
    high_council_seats: String(stake.high_council_seats),
  }
}

type StakeField = keyof StakeValues
export type KeyErrors<F extends string> = Partial<Record<F, string>>

function wholeNumber(raw: string, min: number, max: number): number | null {
  const text = raw.trim()
  if (!/^\d+$/.test(text)) return null
  const n = Number(text)
  return n >= min && n <= max ? n : null
}

/** What is wrong with a public page address, as a `stake` translation key; null when nothing is. */
function slugProblem(slug: string): string | null {
  if (!slug) return 'settings.enterSlug'
  if (slug.length < SLUG_LENGTH.min || slug.length > SLUG_LENGTH.max) return 'settings.slugLength'
  return SLUG_PATTERN.test(slug) ? null : 'settings.slugFormat'
}

/** The body to send, or the fields to correct first (as `stake` translation keys). */
export function checkStake(v: StakeValues): { body: StakeBody } | { errors: KeyErrors<StakeField> } {
  const errors: KeyErrors<StakeField> = {}
  const name = v.name.trim()
  if (!name) errors.name = 'settings.enterName'
  else if (name.length > LIMITS.name) errors.name = 'settings.nameTooLong'
  const slug = v.slug.trim()
  const badSlug = slugProblem(slug)
  if (badSlug) errors.slug = badSlug
  if (!v.timezone) errors.timezone = 'settings.chooseTimezone'
  const sp = wholeNumber(v.sp_approvals_required, LIMITS.sp.min, LIMITS.sp.max)
  const hc = wholeNumber(v.hc_approvals_required, LIMITS.hc.min, LIMITS.hc.max)
  const seats = wholeNumber(v.high_council_seats, LIMITS.seats.min, LIMITS.seats.max)
  if (sp === null) errors.sp_approvals_required = 'settings.wholeNumber'
  if (hc === null) errors.hc_approvals_required = 'settings.wholeNumber'
  if (seats === null) errors.high_council_seats = 'settings.wholeNumber'
  // More approvals than seats could never be reached: every proposal would stop at that stage.
  if (hc !== null && seats !== null && hc > seats) errors.hc_approvals_required = 'settings.moreThanSeats'
  if (Object.keys(errors).length > 0 || sp === null || hc === null || seats === null) return { errors }
  return {
    body: {
      name,
      slug,
      timezone: v.timezone,
      language: v.language,
      sp_approvals_required: sp,
      hc_approvals_required: hc,
      high_council_seats: seats,
    },
  }
}

/** Fewer seats than now: the administrator confirms first (a filled seat makes the server refuse). */
export function lowersSeats(stake: Stake, body: StakeBody): boolean {
  return body.high_council_seats < stake.high_council_seats
}

export interface SignupValues {
  code: string
  stake_name: string
  fname: string
  lname: string
  email: string
  password: string
  confirm: string
}

export const emptySignup: SignupValues = {
  code: '',
  stake_name: '',
  fname: '',
  lname: '',
  email: '',
  password: '',
  confirm: '',
}

type SignupField = keyof SignupValues

export function checkSignup(v: SignupValues): { body: StakeSignup } | { errors: KeyErrors<SignupField> } {
  const errors: KeyErrors<SignupField> = {}
  const text = {
    code: v.code.trim(),
    stake_name: v.stake_name.trim(),
    fname: v.fname.trim(),
    lname: v.lname.trim(),
    email: v.email.trim(),
  }
  if (!text.code) errors.code = 'create.enterCode'
  if (!text.stake_name) errors.stake_name = 'create.enterStakeName'
  else if (text.stake_name.length > LIMITS.name) errors.stake_name = 'settings.nameTooLong'
  if (!text.fname) errors.fname = 'create.enterFirst'
  if (!text.lname) errors.lname = 'create.enterLast'
  if (!text.email) errors.email = 'create.enterEmail'
  else if (!/^[^\s@]+@[^\s@]+$/.test(text.email)) errors.email = 'create.invalidEmail'
  if (v.password.length < 8) errors.password = 'create.tooShort'
  else if (v.password.length > 256) errors.password = 'create.tooLong'
  else if (v.confirm !== v.password) errors.confirm = 'create.mismatch'
  if (Object.keys(errors).length > 0) return { errors }
  return { body: { ...text, password: v.password } }
}

/**
 * How POST /stakes refusals read: the server has no signup codes at all
 * (404: new stakes are closed here), the code is unknown or used up (403 `forbidden`),
 * the email already has an account on this deployment (409), or anything
 * else (the server's own message, or the 422 field errors).
 */
export type SignupRefusal = { kind: 'closed' } | { kind: 'field'; field: SignupField; key: string } | { kind: 'other' }

export function signupRefusal(status: number, code: string | undefined): SignupRefusal {
  if (status === 404) return { kind: 'closed' }
  // Another 403 (a request from another site, `cross_site`) is not about the code.
  if (status === 403 && (code === 'forbidden' || code === undefined)) {
    return { kind: 'field', field: 'code', key: 'create.badCode' }
  }
  if (status === 409 && code === 'duplicate_email') return { kind: 'field', field: 'email', key: 'create.emailTaken' }
  return { kind: 'other' }
}
