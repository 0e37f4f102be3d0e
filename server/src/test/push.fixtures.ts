import crypto from 'node:crypto'
import { startRecorder } from './http-recorder.ts'

/**
 * A local HTTP server standing in for a browser's push service: records every
 * request with its binary body and answers 201 (as the real ones do), or a
 * chosen status for the next requests to a path.
 */
export const startPushService = () => startRecorder(201, (body) => body)

/** A browser's side of a push subscription: its P-256 key pair and auth secret. */
export function newDevice(endpoint: string) {
  const ecdh = crypto.createECDH('prime256v1')
  const publicKey = ecdh.generateKeys()
  const auth = crypto.randomBytes(16)
  return {
    ecdh,
    auth,
    body: { endpoint, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
  }
}

const hmac = (key: Buffer, data: Buffer) => crypto.createHmac('sha256', key).update(data).digest()

/**
 * What the browser does with a push (RFC 8291 over RFC 8188 aes128gcm),
 * written out from the RFCs independently of the server's library: the
 * header's salt and the server's ephemeral key, ECDH with the device's key,
 * the two HKDF steps (auth secret, then salt), AES-128-GCM, the padding
 * delimiter of the last record.
 */
export function decryptPush(device: ReturnType<typeof newDevice>, body: Buffer): string {
  const salt = body.subarray(0, 16)
  const rs = body.readUInt32BE(16)
  const idLength = body[20]!
  const serverKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  if (record.length > rs) throw new Error('more than one record')
  const shared = device.ecdh.computeSecret(serverKey)
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    device.ecdh.getPublicKey(),
    serverKey,
    Buffer.from([1]),
  ])
  const ikm = hmac(hmac(device.auth, shared), keyInfo)
  const prk = hmac(salt, ikm)
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16)
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12)
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('no last-record delimiter')
  return padded.subarray(0, end).toString('utf8')
}

/**
 * Checks the VAPID authorization (RFC 8292) as a push service does: `vapid
 * t=<JWT>, k=<key>`, the key the one given, an ES256 signature by it, the
 * audience the endpoint's origin, an expiry within 24 hours. Returns the claims.
 */
export function verifyVapid(header: string | undefined, publicKey: string, endpoint: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
  if (!match) throw new Error(`not a vapid authorization: ${header}`)
  const [, jwt, k] = match
  if (k !== publicKey) throw new Error('signed with another key')
  const [head, claims, signature] = jwt!.split('.')
  const raw = Buffer.from(publicKey, 'base64url')
  const key = crypto.createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  )
  if (!ok) throw new Error('bad signature')
  const parsed = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { aud: string; exp: number; sub: string }
  if (parsed.aud !== new URL(endpoint).origin) throw new Error(`audience ${parsed.aud}`)
  if (parsed.exp * 1000 - Date.now() > 24 * 3600 * 1000 + 60_000) throw new Error('expires too late')
  return parsed
}
