import { Type, type Static } from 'typebox'
import { Id } from './common.ts'
import { SLUG_LENGTH } from './slugs.ts'
import { Email, Password } from './users.ts'

/** A stake's settings (docs/api-reference.md §14): what used to be environment variables, per stake. */
export const Stake = Type.Object({
  id: Id,
  name: Type.String(),
  /** Its address: the public page is `/s/<slug>`; unique in the deployment. */
  slug: Type.String(),
  /** IANA time zone name: the stake's days, reminders and daily jobs follow it. */
  timezone: Type.String(),
  /** 'en' | 'es': the language of new users and of mail to people without an account. */
  language: Type.Union([Type.Literal('en'), Type.Literal('es')]),
  sp_approvals_required: Type.Integer({ minimum: 1, maximum: 3 }),
  hc_approvals_required: Type.Integer({ minimum: 1, maximum: 100 }),
  high_council_seats: Type.Integer({ minimum: 1, maximum: 100 }),
  /**
   * Whether an administrator has saved these settings (PUT /stake) since the
   * stake was made: the first-run checklist's first step. Always present in
   * GET and PUT /stake's answers.
   */
  settings_saved: Type.Optional(Type.Boolean()),
})
export type Stake = Static<typeof Stake>

/** PUT /stake: every field of a stake but its id; without `slug` the stake keeps its address. */
export const StakeBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  /** SLUG_PATTERN, checked by the server with its own message (422 `slug_format`); taken → 409 `slug_taken`. */
  slug: Type.Optional(Type.String({ minLength: SLUG_LENGTH.min, maxLength: SLUG_LENGTH.max })),
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  language: Type.Union([Type.Literal('en'), Type.Literal('es')]),
  sp_approvals_required: Type.Integer({ minimum: 1, maximum: 3 }),
  hc_approvals_required: Type.Integer({ minimum: 1, maximum: 100 }),
  high_council_seats: Type.Integer({ minimum: 1, maximum: 100 }),
})
export type StakeBody = Static<typeof StakeBody>

/** POST /stakes: a new stake and its first administrator, with a signup code from the operator. */
export const StakeSignup = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200 }),
  stake_name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  email: Email,
  fname: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  lname: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  password: Password,
})
export type StakeSignup = Static<typeof StakeSignup>

/**
 * GET /stake/setup (holders of the four permissions the steps need): which of
 * a new stake's first steps are done, each decided from the data itself —
 * the settings saved; every ward with a bishop (and at least one ward); the
 * presidency and high-council seats a proposal's approvals need filled;
 * someone besides the caller invited or signed in with a password of their
 * own; a proposal the caller can see. The board's first-run list.
 */
export const StakeSetup = Type.Object({
  stake: Type.Boolean(),
  wards: Type.Boolean(),
  seats: Type.Boolean(),
  users: Type.Boolean(),
  proposal: Type.Boolean(),
})
export type StakeSetup = Static<typeof StakeSetup>
