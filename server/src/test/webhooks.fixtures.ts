import crypto from 'node:crypto'
import { startRecorder, type Recorded } from './http-recorder.ts'

export type Received = Recorded<string>

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request
 * and answers 204, or a failure status for the next requests to a path.
 */
export async function startReceiver() {
  const recorder = await startRecorder(204, (body) => body.toString(), 'nope')
  return {
    ...recorder,
    /** The next `count` requests to `path` get `status`. */
    fail: (path: string, count: number, status = 500) => recorder.answer(path, count, status),
  }
}

/**
 * What a receiver does to trust a delivery (README "Webhooks"), written out
 * independently of the server's code: HMAC-SHA256 over `timestamp.body`,
 * compared in constant time.
 */
export function verifies(secret: string, request: Received): boolean {
  const timestamp = String(request.headers['x-stake-timestamp'])
  const hex = crypto.createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')
  const expected = Buffer.from(`sha256=${hex}`)
  const given = Buffer.from(String(request.headers['x-stake-signature']))
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
}
