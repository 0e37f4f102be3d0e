import { Type, type Static } from 'typebox'
import { Id, PermissionName, Timestamp } from './common.ts'
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
