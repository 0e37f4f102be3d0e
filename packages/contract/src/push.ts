import { Type, type Static } from 'typebox'
import { Id } from './common.ts'

/**
 * Web Push (docs/api-reference.md §11): one subscription per device of the signed-in user,
 * managed in the profile. The server's VAPID public key (base64url) is what
 * the browser's PushManager.subscribe needs as `applicationServerKey`.
 */
export const PushKey = Type.Object({ public_key: Type.String() })
export type PushKey = Static<typeof PushKey>

/** What the browser's PushSubscription.toJSON() gives, plus a name for the device. */
export const PushDeviceBody = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: 2048 }),
  keys: Type.Object({
    /** The device's P-256 public key (base64url, 65 bytes uncompressed). */
    p256dh: Type.String({ minLength: 1, maxLength: 200 }),
    /** The device's authentication secret (base64url, 16 bytes). */
    auth: Type.String({ minLength: 1, maxLength: 100 }),
  }),
  /** The device as the profile lists it ("Chrome on Android"); optional. */
  label: Type.Optional(Type.String({ maxLength: 100 })),
})
export type PushDeviceBody = Static<typeof PushDeviceBody>

/** A device that receives notifications (never its keys; the endpoint only to recognise this device). */
export const PushDevice = Type.Object({
  id: Id,
  label: Type.String(),
  endpoint: Type.String(),
  created_at: Type.String(),
})
export type PushDevice = Static<typeof PushDevice>

export const PushDeviceParams = Type.Object({ subscription_id: Id })

/**
 * A test push's outcome (S18): `sent` (the push service took it) or
 * `not_delivered` (anything else; a failed try is retried on the usual
 * schedule). Nothing finer, so the button tells nothing about the network.
 */
export const PushTestResult = Type.Object({
  outcome: Type.Union([Type.Literal('sent'), Type.Literal('not_delivered')]),
})
export type PushTestResult = Static<typeof PushTestResult>
