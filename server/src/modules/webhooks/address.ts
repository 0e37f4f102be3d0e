import dns from 'node:dns'
import net from 'node:net'

/**
 * Which addresses a webhook may reach (docs/api-reference.md §11; docs/SECURITY.md
 * "Webhooks"): only public unicast ones, unless WEBHOOK_ALLOW_PRIVATE=true.
 * The check runs when a webhook is saved (its URL's host, or every address
 * its name resolves to) and again on every delivery, on the addresses the
 * connection is actually made to (`guardedLookup`), so a name that resolves
 * elsewhere later (DNS rebinding) still cannot reach the inside.
 */

const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
]

const V6_BLOCKED: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96], // SIIT IPv4-translated (RFC 6052 2.1): a translator on the inside would reach the IPv4
  ['64:ff9b:1::', 48], // NAT64 local-use (RFC 8215): the operator's own translator, inside by definition
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, ...)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 segment identifiers (RFC 9602), never a host on the internet
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
]

const blocked = new net.BlockList()
for (const [address, prefix] of V4_BLOCKED) blocked.addSubnet(address, prefix, 'ipv4')
for (const [address, prefix] of V6_BLOCKED) blocked.addSubnet(address, prefix, 'ipv6')
/** IANA's global unicast space; IPv6 outside it (save the IPv4-carrying forms) reaches nothing public. */
const globalUnicast = new net.BlockList()
globalUnicast.addSubnet('2000::', 3, 'ipv6')

/** The 16 bytes of an IPv6 address (any spelling node accepts), or null. */
function v6Bytes(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null
  let text = address.split('%')[0]!.toLowerCase()
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number]
    text = text.slice(0, -tail[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, rest] = text.split('::') as [string, string | undefined]
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : [])
  const left = groups(head)
  const right = rest === undefined ? [] : groups(rest)
  const middle = rest === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0)
  return [...left, ...middle, ...right].flatMap((g) => [g >> 8, g & 0xff])
}

/**
 * The IPv4 address an IPv6 address carries and routes to: IPv4-mapped
 * (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
function embeddedV4(bytes: number[]): string | null {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0)
  const quad = (at: number) => bytes.slice(at, at + 4).join('.')
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return quad(12)
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12)) return quad(12)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return quad(2)
  return null
}

/**
 * True for every address a webhook must not reach: anything but public
 * unicast. An IPv6 address is refused when its own range is not global, and
 * one that carries an IPv4 address is judged by that IPv4 address too.
 */
export function isNonPublicAddress(address: string): boolean {
  if (net.isIPv4(address)) return blocked.check(address, 'ipv4')
  const bytes = v6Bytes(address)
  if (!bytes) return true // not an address at all: refuse rather than guess
  const bare = address.split('%')[0]!
  if (blocked.check(bare, 'ipv6')) return true
  const inner = embeddedV4(bytes)
  if (inner !== null) return blocked.check(inner, 'ipv4')
  return !globalUnicast.check(bare, 'ipv6')
}

/** The port a URL connects to: its own, or its scheme's default. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
}

/**
 * What a webhook may reach (docs/SECURITY.md "Webhooks"): with `allowPrivate`
 * (WEBHOOK_ALLOW_PRIVATE, an intranet or the tests) anything; otherwise public
 * addresses on the listed ports only, so a webhook's test button cannot probe
 * other services (SMTP, databases) on public hosts.
 */
export interface TargetRules {
  allowPrivate: boolean
  ports: readonly number[]
}

/** A URL's host as an address when it is one (IPv6 without brackets), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  return net.isIP(bare) ? bare : null
}

export type UrlProblem = { msg: string; type: string }

/** Why a webhook URL is refused, or null. Resolves names (all their addresses) unless private ones are allowed. */
export async function urlProblem(raw: string, rules: TargetRules): Promise<UrlProblem | null> {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return { msg: 'Not a URL', type: 'url_parsing' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { msg: 'Only http and https URLs are allowed', type: 'url_scheme' }
  if (url.username || url.password) return { msg: 'Credentials in the URL are not allowed', type: 'url_credentials' }
  if (rules.allowPrivate) return null
  if (!rules.ports.includes(portOf(url)))
    return { msg: `Only these ports are allowed: ${rules.ports.join(', ')}`, type: 'url_port' }
  const literal = literalAddress(url.hostname)
  if (literal !== null) return isNonPublicAddress(literal) ? privateProblem : null
  let addresses: { address: string }[]
  try {
    addresses = await dns.promises.lookup(url.hostname, { all: true, verbatim: true })
  } catch {
    return { msg: 'The host name does not resolve', type: 'url_host' }
  }
  return addresses.length === 0 || addresses.some((a) => isNonPublicAddress(a.address)) ? privateProblem : null
}

const privateProblem: UrlProblem = {
  msg: 'Private, loopback and other non-public addresses are not allowed',
  type: 'url_private',
}

export class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLIC'
  constructor(host: string, address: string) {
    super(`${host} resolves to the non-public address ${address}`)
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void

/**
 * `lookup` for node's http(s).request: resolves as usual, then refuses the
 * connection when any address is not public, so the socket is only ever
 * opened to an address checked here (DNS rebinding cannot slip between a
 * check and the connect). Handles both callback forms (`all` or one address).
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '')
    const bad = addresses.find((a) => isNonPublicAddress(a.address))
    if (bad || addresses.length === 0) return callback(new NonPublicAddressError(hostname, bad?.address ?? 'none'), '')
    if (options.all) return callback(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}
