import { Type, type Static } from 'typebox'
import { Id, Timestamp } from './common.ts'

/** Accounts without an administrator in the loop (docs/api-reference.md §16). */

/** A link mailed, or (mail off) the link itself for the administrator to hand over. */
const LinkSent = () =>
  Type.Object({
    sent: Type.Boolean(),
    /** Only when `sent` is false: the link, to pass on by hand. */
    url: Type.Optional(Type.String()),
  })

/** `POST /users/{id}/invite`: the Welcome link. */
export const InvitationSent = LinkSent()
export type InvitationSent = Static<typeof InvitationSent>

/** An invitation not accepted yet (the users page): the newest one per user. */
export const PendingInvitation = Type.Object({
  user_id: Id,
  sent_at: Timestamp,
  expires_at: Timestamp,
  expired: Type.Boolean(),
})
export type PendingInvitation = Static<typeof PendingInvitation>

/** A token from a link: base64url, 43 characters (256 bits). */
export const LinkToken = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' })

export const InvitationParams = Type.Object({ token: Type.String({ maxLength: 200 }) })

export const InvitationInfo = Type.Object({
  email: Type.String(),
  fname: Type.String(),
  lname: Type.String(),
})
export type InvitationInfo = Static<typeof InvitationInfo>

export const AcceptInvitationBody = Type.Object({
  password: Type.String({ maxLength: 1024 }),
})

export const PasswordResetBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
})

export const PASSWORD_RESET_ANSWER = 'If the address belongs to an account, a message is on its way'

export const PasswordResetAccepted = Type.Object({ detail: Type.String() })

/**
 * `POST /auth/password-reset`'s 202: the same for every address. `mail` says
 * whether the deployment sends mail at all (a fact about the deployment, not
 * the account): without it the page tells the person to ask the stake's
 * administrator for a reset link.
 */
export const PasswordResetRequested = Type.Object({ detail: Type.String(), mail: Type.Boolean() })
export type PasswordResetRequested = Static<typeof PasswordResetRequested>

/** `POST /users/{id}/reset-link`: mailed, or (mail off) the link for the administrator to hand over. */
export const ResetLinkSent = LinkSent()
export type ResetLinkSent = Static<typeof ResetLinkSent>

export const PasswordResetConfirmBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  new_password: Type.String({ maxLength: 1024 }),
})

export const Passkey = Type.Object({
  id: Id,
  name: Type.String(),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()]),
})
export type Passkey = Static<typeof Passkey>

export const PasskeyName = Type.String({ minLength: 1, maxLength: 100 })

export const RenamePasskeyBody = Type.Object({ name: PasskeyName })

/** WebAuthn options as JSON (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON), passed to the browser as they are. */
export const WebAuthnOptions = Type.Object({ challenge: Type.String() }, { additionalProperties: true })

/** The browser's credential as JSON (RegistrationResponseJSON / AuthenticationResponseJSON). */
export const WebAuthnCredentialJson = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1024 }),
    rawId: Type.String({ minLength: 1, maxLength: 1024 }),
    type: Type.Literal('public-key'),
    response: Type.Object({}, { additionalProperties: true }),
    clientExtensionResults: Type.Optional(Type.Object({}, { additionalProperties: true })),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: true },
)

export const RegisterPasskeyBody = Type.Object({
  credential: WebAuthnCredentialJson,
  name: Type.Optional(PasskeyName),
})

export const PasskeyLoginBody = Type.Object({
  credential: WebAuthnCredentialJson,
  shared_computer: Type.Optional(Type.Boolean()),
})
