import crypto from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Buffer | string): Buffer => crypto.createHash('sha256').update(data).digest()
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}

/**
 * A passkey authenticator in software for the server tests (the browser
 * tests use Chromium's virtual authenticator): an ES256 key, a discoverable
 * credential, `none` attestation, user presence and verification set. It
 * answers what navigator.credentials.create/get would, as the JSON that
 * @simplewebauthn/browser sends.
 */
export class SoftAuthenticator {
  readonly credentialId = crypto.randomBytes(16)
  private readonly keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
  counter = 0
  userHandle: string | null = null

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {}

  get id(): string {
    return b64url(this.credentialId)
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' })
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    )
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** navigator.credentials.create() with the server's creation options. */
  register(options: { challenge: string; user: { id: string } }, over: { origin?: string; rpId?: string } = {}) {
    this.userHandle = options.user.id
    const authData = Buffer.concat([
      sha256(over.rpId ?? this.rpId),
      Buffer.from([0x45]), // UP | UV | AT
      u32(this.counter),
      Buffer.alloc(16), // AAGUID
      Buffer.from([0, this.credentialId.length]),
      this.credentialId,
      this.cosePublicKey(),
    ])
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    )
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, over.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  /** navigator.credentials.get() with the server's request options; the counter moves on unless told otherwise. */
  assert(
    options: { challenge: string },
    over: { origin?: string; rpId?: string; counter?: number; userVerified?: boolean } = {},
  ) {
    if (over.counter === undefined) this.counter++
    const authData = Buffer.concat([
      sha256(over.rpId ?? this.rpId),
      Buffer.from([over.userVerified === false ? 0x01 : 0x05]),
      u32(over.counter ?? this.counter),
    ])
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, over.origin ?? this.origin)
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey)
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle ?? undefined,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }
}
