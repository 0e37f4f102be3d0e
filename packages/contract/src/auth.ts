import { Type, type Static } from 'typebox'
import { Actions } from './actions.ts'
import { Id, PermissionName, Timestamp } from './common.ts'
import { CompactBoard } from './proposals.ts'
import { Stake, StakeSetup } from './stakes.ts'
import { Ward } from './wards.ts'
import { User } from './users.ts'

export { SHARED_SESSION_IDLE_SECONDS } from './sessions.ts'

export const LoginForm = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  shared_computer: Type.Optional(
    Type.Boolean({
      description:
        '`true` on a shared computer: the session ends after 30 minutes without activity and the refresh cookie is not persistent (no Max-Age). Default false.',
    }),
  ),
})
export type LoginForm = Static<typeof LoginForm>

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
  /** Only on a shared-computer session: seconds without activity after which it ends. */
  idle_timeout: Type.Optional(Type.Integer({ minimum: 1 })),
})
export type TokenResponse = Static<typeof TokenResponse>

export const HeldCalling = Type.Object({
  calling_id: Id,
  name: Type.String(),
  key: Type.Union([Type.String(), Type.Null()]),
  slot_id: Id,
  ward_id: Type.Union([Id, Type.Null()]),
})
export type HeldCalling = Static<typeof HeldCalling>

export const Me = Type.Object({
  ...User.properties,
  callings: Type.Array(HeldCalling),
  permissions: Type.Array(PermissionName),
})
export type Me = Static<typeof Me>

/**
 * What a sign-in or a refresh may carry besides the token
 * (`?include=me,board,actions,wards,stake,setup`): the first screen's data, each
 * exactly the answer of its own route, so a sign-in or a page reload reaches
 * its first screen in one round trip. A part the caller may not read (the
 * board and the queue while a new password is required, the first-run list's
 * steps without the permissions they need) is left out.
 */
export const REFRESH_INCLUDES = ['me', 'board', 'actions', 'wards', 'stake', 'setup'] as const
export type RefreshInclude = (typeof REFRESH_INCLUDES)[number]

export const RefreshQuery = Type.Object({
  include: Type.Optional(
    Type.String({
      pattern: `^(${REFRESH_INCLUDES.join('|')})(,(${REFRESH_INCLUDES.join('|')}))*$`,
      maxLength: 64,
      description:
        'Comma list of `me` (the answer of GET /auth/me), `board` (GET /calling-kanban/board/compact, with its ETag in `board_etag`), `actions` (GET /actions), `wards` (GET /wards), `stake` (GET /stake) and `setup` (GET /stake/setup), sent with the new token.',
    }),
  ),
})
export type RefreshQuery = Static<typeof RefreshQuery>

export const RefreshResponse = Type.Object({
  ...TokenResponse.properties,
  me: Type.Optional(Me),
  board: Type.Optional(CompactBoard),
  board_etag: Type.Optional(Type.String()),
  actions: Type.Optional(Actions),
  wards: Type.Optional(Type.Array(Ward)),
  stake: Type.Optional(Stake),
  setup: Type.Optional(StakeSetup),
})
export type RefreshResponse = Static<typeof RefreshResponse>

export const SessionInfo = Type.Object({
  id: Type.String(),
  created_at: Timestamp,
  last_used_at: Timestamp,
  expires_at: Timestamp,
  user_agent: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  current: Type.Boolean(),
})
export type SessionInfo = Static<typeof SessionInfo>
