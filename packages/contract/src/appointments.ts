import { Type, type Static } from 'typebox'
import { Id, Timestamp } from './common.ts'

/** Appointments with booking links and the stake's Sunday plan (docs/api-reference.md §18). */

/** A nullable input as one JSON-schema type list: no 0/false slipping through as null. */
const nullableInt = (opts: { minimum: number; maximum: number }) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], ...opts })
const nullableString = (opts: { minLength?: number; maxLength: number; pattern?: string }) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...opts })

/** A local date, YYYY-MM-DD. */
export const LocalDate = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$' })
/** Minutes of a local day on the quarter hour (0–1440; 1440 = midnight at the end of the day). */
const QuarterMinute = Type.Integer({ minimum: 0, maximum: 1440, multipleOf: 15 })

export const AvailabilityWindow = Type.Object({
  /** 0 = Sunday … 6 = Saturday. */
  weekday: Type.Integer({ minimum: 0, maximum: 6 }),
  start_minute: QuarterMinute,
  end_minute: QuarterMinute,
})
export type AvailabilityWindow = Static<typeof AvailabilityWindow>

export const AvailabilityException = Type.Object({
  date: LocalDate,
  start_minute: QuarterMinute,
  end_minute: QuarterMinute,
  /** true adds this time on that day; false takes it away (a whole day off: 0–1440). */
  open: Type.Boolean(),
})
export type AvailabilityException = Static<typeof AvailabilityException>

export const Availability = Type.Object({
  user_id: Id,
  timezone: Type.String(),
  weekly: Type.Array(AvailabilityWindow, { maxItems: 100 }),
  exceptions: Type.Array(AvailabilityException, { maxItems: 500 }),
  /** Where the interviews are held ("Stake offices", a video link); null when not said. */
  place: Type.Union([Type.String(), Type.Null()]),
})
export type Availability = Static<typeof Availability>

export const AvailabilityInput = Type.Object({
  weekly: Type.Array(AvailabilityWindow, { maxItems: 100 }),
  exceptions: Type.Array(AvailabilityException, { maxItems: 500 }),
  /** Where the interviews are held; omitted: unchanged; null or blank: not said. */
  place: Type.Optional(nullableString({ maxLength: 300 })),
})
export type AvailabilityInput = Static<typeof AvailabilityInput>

export const AvailabilityQuery = Type.Object({ user_id: Type.Optional(Id) })
export type AvailabilityQuery = Static<typeof AvailabilityQuery>

export const APPOINTMENT_KINDS = ['proposal', 'temple_recommend', 'ordination', 'other'] as const
export type AppointmentKind = (typeof APPOINTMENT_KINDS)[number]
export const AppointmentKindName = Type.Union([
  Type.Literal('proposal'),
  Type.Literal('temple_recommend'),
  Type.Literal('ordination'),
  Type.Literal('other'),
])

export const OfferInput = Type.Object({
  kind: AppointmentKindName,
  /** Required when kind is `proposal`: the proposal whose interview this is. */
  proposal_id: Type.Optional(nullableInt({ minimum: 1, maximum: 2147483647 })),
  /** The person's name; a proposal's is taken when omitted. */
  name: Type.Optional(nullableString({ minLength: 1, maxLength: 200 })),
  email: Type.Optional(nullableString({ maxLength: 254, pattern: '^$|^[^@\\s]+@[^@\\s]+$' })),
  phone: Type.Optional(nullableString({ maxLength: 40 })),
  /** null or omitted: any member of the stake presidency. */
  interviewer_id: Type.Optional(nullableInt({ minimum: 1, maximum: 2147483647 })),
  duration_minutes: Type.Integer({ minimum: 15, maximum: 120, multipleOf: 15 }),
})
export type OfferInput = Static<typeof OfferInput>

export const OfferCreated = Type.Object({ id: Id, url: Type.String(), expires_at: Timestamp })
export type OfferCreated = Static<typeof OfferCreated>

export const BookingTokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) })
export type BookingTokenParams = Static<typeof BookingTokenParams>

export const BookingSlot = Type.Object({ starts_at: Timestamp, ends_at: Timestamp })
export type BookingSlot = Static<typeof BookingSlot>

/** What the booking page shows: the person's own offer and the interviewer's free times, nothing else. */
export const BookingPage = Type.Object({
  kind: AppointmentKindName,
  name: Type.String(),
  interviewer: Type.Union([Type.String(), Type.Null()]),
  duration_minutes: Type.Integer(),
  timezone: Type.String(),
  expires_at: Timestamp,
  booking: Type.Union([BookingSlot, Type.Null()]),
  /** Where the interview is held: the (booked) interviewer's place; null when not said or nobody is chosen yet. */
  place: Type.Union([Type.String(), Type.Null()]),
  slots: Type.Array(BookingSlot),
})
export type BookingPage = Static<typeof BookingPage>

export const BookingInput = Type.Object({ starts_at: Timestamp })
export type BookingInput = Static<typeof BookingInput>

/** One of the signed-in interviewer's (or, for proposals.manage, the stake's) booked appointments. */
export const Appointment = Type.Object({
  id: Id,
  kind: AppointmentKindName,
  name: Type.String(),
  proposal_id: Type.Union([Id, Type.Null()]),
  interviewer_id: Id,
  starts_at: Timestamp,
  ends_at: Timestamp,
})
export type Appointment = Static<typeof Appointment>

// ------------------------------------------------------------------ Sunday plan

export const SUNDAY_ASSIGNMENT_KINDS = ['ward_visit', 'stake_conference'] as const
export type SundayAssignmentKind = (typeof SUNDAY_ASSIGNMENT_KINDS)[number]
export const SundayAssignmentKindName = Type.Union([Type.Literal('ward_visit'), Type.Literal('stake_conference')])

export const SundayPerson = Type.Object({ id: Id, fname: Type.String(), lname: Type.String() })
export type SundayPerson = Static<typeof SundayPerson>

export const SundayAssignmentInput = Type.Object({
  user_id: Id,
  kind: SundayAssignmentKindName,
  /** A ward visit's ward (required for `ward_visit`). */
  ward_id: Type.Optional(nullableInt({ minimum: 1, maximum: 2147483647 })),
  /** A conference session's name ("Saturday evening", "General session"). */
  session: Type.Optional(nullableString({ minLength: 1, maxLength: 100 })),
  /** Local start, minutes after midnight; a ward visit defaults to the ward's meeting time. */
  start_minute: Type.Optional(nullableInt({ minimum: 0, maximum: 1439 })),
  duration_minutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 600 })),
})
export type SundayAssignmentInput = Static<typeof SundayAssignmentInput>

export const SundayAssignmentsInput = Type.Object({
  /** A Sunday, YYYY-MM-DD. */
  date: LocalDate,
  /** The Sunday's whole list: it replaces what the Sunday had. */
  assignments: Type.Array(SundayAssignmentInput, { maxItems: 100 }),
})
export type SundayAssignmentsInput = Static<typeof SundayAssignmentsInput>

export const SundayAssignment = Type.Object({
  id: Id,
  user: SundayPerson,
  kind: SundayAssignmentKindName,
  ward_id: Type.Union([Id, Type.Null()]),
  session: Type.Union([Type.String(), Type.Null()]),
  start_minute: Type.Integer(),
  duration_minutes: Type.Integer(),
})
export type SundayAssignment = Static<typeof SundayAssignment>

/** The high council's speaking rotation on that Sunday (docs/api-reference.md §8, §13). */
export const SundaySpeaker = Type.Object({ user: SundayPerson, ward_id: Id, start_minute: Type.Integer() })
export type SundaySpeaker = Static<typeof SundaySpeaker>

/** One person in two places at once. */
export const SundayWarning = Type.Object({ user: SundayPerson, message: Type.String() })
export type SundayWarning = Static<typeof SundayWarning>

export const Sunday = Type.Object({
  date: LocalDate,
  assignments: Type.Array(SundayAssignment),
  speakers: Type.Array(SundaySpeaker),
  warnings: Type.Array(SundayWarning),
})
export type Sunday = Static<typeof Sunday>

export const SundayPlanParams = Type.Object({ year: Type.Integer({ minimum: 2000, maximum: 2100 }) })
export type SundayPlanParams = Static<typeof SundayPlanParams>

export const SundayPlan = Type.Object({
  year: Type.Integer(),
  wards: Type.Array(Type.Object({ id: Id, name: Type.String(), start_time: Type.Integer() })),
  people: Type.Array(SundayPerson),
  sundays: Type.Array(Sunday),
})
export type SundayPlan = Static<typeof SundayPlan>
