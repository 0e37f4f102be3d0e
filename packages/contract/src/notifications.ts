import { Type, type Static } from 'typebox'
import { Id, Limit, Offset, Timestamp } from './common.ts'

/** The inbox, preferences, the mail outbox and reminders (docs/api-reference.md §11). */

export const NOTIFICATION_KINDS = [
  'vote_needed',
  'interview_assigned',
  'stage_changed',
  'declined',
  'comment',
  'reminder',
] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

export const NotificationKindName = Type.Union([
  Type.Literal('vote_needed'),
  Type.Literal('interview_assigned'),
  Type.Literal('stage_changed'),
  Type.Literal('declined'),
  Type.Literal('comment'),
  Type.Literal('reminder'),
])

/** One inbox entry; `text` is in the recipient's language. */
export const Notification = Type.Object({
  id: Id,
  kind: NotificationKindName,
  proposal_id: Type.Union([Id, Type.Null()]),
  text: Type.String(),
  created_at: Timestamp,
  read_at: Type.Union([Timestamp, Type.Null()]),
})
export type Notification = Static<typeof Notification>

/** Newest first; the total in X-Total-Count, the caller's unread count in X-Unread-Count. */
export const NotificationListQuery = Type.Object({
  /** true: only unread ones. */
  unread: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
})
export type NotificationListQuery = Static<typeof NotificationListQuery>

export const NotificationParams = Type.Object({ notification_id: Id })

export const EMAIL_PREFERENCES = ['off', 'immediate', 'daily'] as const
export type EmailPreference = (typeof EMAIL_PREFERENCES)[number]

/** `immediate` until the user chooses. */
export const NotificationPreferences = Type.Object({
  email: Type.Union([Type.Literal('off'), Type.Literal('immediate'), Type.Literal('daily')]),
})
export type NotificationPreferences = Static<typeof NotificationPreferences>

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number]

const OutboxStatusName = Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')])

export const OutboxQuery = Type.Object({
  status: Type.Optional(OutboxStatusName),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
})
export type OutboxQuery = Static<typeof OutboxQuery>

/**
 * A queued mail as administrators see it (`users.manage`): the address,
 * subject and delivery state, never the body (it names proposals the
 * administrator may not see). A message being sent right now is `pending`.
 */
export const OutboxEntry = Type.Object({
  id: Id,
  user_id: Type.Union([Id, Type.Null()]),
  to: Type.String(),
  kind: Type.String(),
  subject: Type.String(),
  status: OutboxStatusName,
  attempts: Type.Integer({ minimum: 0 }),
  next_attempt_at: Type.Union([Timestamp, Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  sent_at: Type.Union([Timestamp, Type.Null()]),
})
export type OutboxEntry = Static<typeof OutboxEntry>

/** POST /calling-kanban/proposals/{id}/remind: the voters reminded. */
export const Reminded = Type.Object({ reminded: Type.Array(Id) })
export type Reminded = Static<typeof Reminded>
