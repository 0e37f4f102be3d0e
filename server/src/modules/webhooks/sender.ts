import http from 'node:http'
import https from 'node:https'
import type { Socket } from 'node:net'
import {
  guardedLookup,
  isNonPublicAddress,
  literalAddress,
  NonPublicAddressError,
  portOf,
  type TargetRules,
} from './address.ts'

export interface PostResult {
  /** The receiver's status code; null when no answer came (refused, timed out, unreachable). */
  statusCode: number | null
  /** Why it did not count as delivered; null for a 2xx answer. One of DELIVERY_ERRORS or `HTTP <status>`. */
  error: string | null
}

/**
 * The only words a failed delivery's `last_error` carries (docs/SECURITY.md
 * "Webhooks"): never the socket's own message, which tells a refused port
 * from a filtered one and a missing name from a refused address, and would
 * make the test button a scanner of other people's hosts.
 */
export const DELIVERY_ERRORS = { connect: 'could not connect', timeout: 'timed out' } as const

class DeliveryTimeout extends Error {}

/** How much of an answer is read: enough to end the exchange, never kept. */
const MAX_ANSWER_BYTES = 64 * 1024

/**
 * POSTs one delivery. Never throws: every failure (a refused address, DNS,
 * connection, timeout, a non-2xx answer) comes back as a PostResult. No
 * redirect is followed (a 3xx is a failure), so the address checked is the
 * address posted to. Unless private addresses are allowed, the connection is
 * made only to addresses `guardedLookup` accepted, and the socket's peer is
 * checked once more when it connects.
 */
export function postWebhook(
  target: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  options: TargetRules & { timeoutMs: number },
): Promise<PostResult> {
  return new Promise((resolve) => {
    let settled = false
    const finish = (result: PostResult) => {
      if (settled) return
      settled = true
      resolve(result)
    }
    let url: URL
    try {
      url = new URL(target)
    } catch {
      return finish({ statusCode: null, error: DELIVERY_ERRORS.connect })
    }
    // Saved under other settings (WEBHOOK_PORTS changed, or a row edited): checked again here.
    const literal = literalAddress(url.hostname)
    const refused =
      !options.allowPrivate &&
      ((literal !== null && isNonPublicAddress(literal)) || !options.ports.includes(portOf(url)))
    const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null
    if (refused || !transport) return finish({ statusCode: null, error: DELIVERY_ERRORS.connect })

    const request = transport.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      timeout: options.timeoutMs,
      agent: false, // one connection per delivery: no pooled socket to an address checked earlier
      ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
    })
    // The whole exchange is bounded, not only idle time between packets.
    const deadline = setTimeout(() => request.destroy(new DeliveryTimeout()), options.timeoutMs)
    request.on('socket', (socket: Socket) => {
      if (options.allowPrivate) return
      socket.once('connect', () => {
        const peer = socket.remoteAddress
        if (!peer || isNonPublicAddress(peer)) request.destroy(new NonPublicAddressError(url.hostname, peer ?? 'none'))
      })
    })
    request.on('timeout', () => request.destroy(new DeliveryTimeout()))
    request.on('error', (error) => {
      clearTimeout(deadline)
      const timedOut = error instanceof DeliveryTimeout
      finish({ statusCode: null, error: timedOut ? DELIVERY_ERRORS.timeout : DELIVERY_ERRORS.connect })
    })
    request.on('response', (response) => {
      let read = 0
      response.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read > MAX_ANSWER_BYTES) response.destroy()
      })
      const done = () => {
        clearTimeout(deadline)
        const status = response.statusCode ?? null
        const ok = status !== null && status >= 200 && status < 300
        finish({ statusCode: status, error: ok ? null : `HTTP ${status}` })
      }
      response.on('end', done)
      response.on('close', done)
      response.on('error', done)
    })
    request.end(body)
  })
}
