import http from 'node:http'
import https from 'node:https'
import type { Socket } from 'node:net'
import { guardedLookup, isNonPublicAddress, literalAddress, NonPublicAddressError } from './address.ts'

export interface PostResult {
  /** The receiver's status code; null when no answer came (refused, timed out, unreachable). */
  statusCode: number | null
  /** Why it did not count as delivered; null for a 2xx answer. */
  error: string | null
}

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
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
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
      return finish({ statusCode: null, error: 'Not a URL' })
    }
    const literal = literalAddress(url.hostname)
    if (!options.allowPrivate && literal !== null && isNonPublicAddress(literal)) {
      return finish({ statusCode: null, error: new NonPublicAddressError(url.hostname, literal).message })
    }
    const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null
    if (!transport) return finish({ statusCode: null, error: 'Only http and https URLs are allowed' })

    const request = transport.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      timeout: options.timeoutMs,
      agent: false, // one connection per delivery: no pooled socket to an address checked earlier
      ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
    })
    // The whole exchange is bounded, not only idle time between packets.
    const deadline = setTimeout(
      () => request.destroy(new Error(`No answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    )
    request.on('socket', (socket: Socket) => {
      if (options.allowPrivate) return
      socket.once('connect', () => {
        const peer = socket.remoteAddress
        if (!peer || isNonPublicAddress(peer)) request.destroy(new NonPublicAddressError(url.hostname, peer ?? 'none'))
      })
    })
    request.on('timeout', () => request.destroy(new Error(`No answer within ${options.timeoutMs} ms`)))
    request.on('error', (error) => {
      clearTimeout(deadline)
      finish({ statusCode: null, error: error.message.slice(0, 500) })
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
        finish({ statusCode: status, error: ok ? null : `The receiver answered ${status}` })
      }
      response.on('end', done)
      response.on('close', done)
      response.on('error', done)
    })
    request.end(body)
  })
}
