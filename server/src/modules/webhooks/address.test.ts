import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { guardedLookup, isNonPublicAddress, urlProblem } from './address.ts'

describe('webhook addresses: what counts as non-public', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast, unspecified and reserved IPv4', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '192.0.2.1',
    ])
      assert.equal(isNonPublicAddress(address), true, address)
  })

  it('refuses IPv6 loopback, unspecified, unique-local, link-local and multicast', () => {
    for (const address of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '2001:db8::1'])
      assert.equal(isNonPublicAddress(address), true, address)
  })

  it('refuses IPv6 forms that carry a non-public IPv4 address (mapped, NAT64, 6to4, compatible)', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::192.168.0.1',
      '2002:c0a8:0101::1',
      '::127.0.0.1',
    ])
      assert.equal(isNonPublicAddress(address), true, address)
  })

  it('accepts public unicast addresses, also IPv4 carried in IPv6', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      assert.equal(isNonPublicAddress(address), false, address)
  })

  it('refuses what is not an address at all', () => {
    assert.equal(isNonPublicAddress('not-an-ip'), true)
  })
})

const STRICT = { allowPrivate: false, ports: [80, 443] }
const OPEN = { allowPrivate: true, ports: [80, 443] }

describe('webhook addresses: non-global IPv6 ranges (S11)', () => {
  it('refuses NAT64 local-use, SIIT, discard, documentation and SRv6 ranges, and IPv6 outside 2000::/3', () => {
    for (const address of [
      '64:ff9b:1::a9fe:a9fe', // local-use NAT64 → 169.254.169.254
      '64:ff9b:1::808:808', // local-use NAT64, even of a public IPv4: the operator's own translator
      '::ffff:0:7f00:1', // SIIT → 127.0.0.1
      '::ffff:0:808:808',
      '100::1',
      '3fff::1',
      '3fff:fff::1',
      '5f00::1',
      '4000::1',
    ])
      assert.equal(isNonPublicAddress(address), true, address)
  })

  it('judges an address carrying IPv4 by that IPv4 (mapped, well-known NAT64, 6to4)', () => {
    for (const [address, refused] of [
      ['::ffff:a9fe:a9fe', true],
      ['64:ff9b::a9fe:a9fe', true],
      ['64:ff9b::10.0.0.1', true],
      ['2002:a9fe:a9fe::1', true],
      ['64:ff9b::8.8.8.8', false],
      ['2002:808:808::1', false],
    ] as const)
      assert.equal(isNonPublicAddress(address), refused, address)
  })
})

describe('webhook URLs (flag off)', () => {
  it('refuses non-http schemes, credentials and unparsable text', async () => {
    assert.equal((await urlProblem('ftp://93.184.216.34/x', STRICT))?.type, 'url_scheme')
    assert.equal((await urlProblem('file:///etc/passwd', STRICT))?.type, 'url_scheme')
    assert.equal((await urlProblem('javascript:alert(1)', STRICT))?.type, 'url_scheme')
    assert.equal((await urlProblem('https://user:pw@93.184.216.34/x', STRICT))?.type, 'url_credentials')
    assert.equal((await urlProblem('not a url', STRICT))?.type, 'url_parsing')
  })

  it('refuses literal non-public hosts in every spelling the URL parser accepts', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://2130706433/x', // 127.0.0.1 as one number
      'http://0x7f.1/x',
      'http://127.1/x',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[fd00::1]/x',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/x',
    ])
      assert.equal((await urlProblem(url, STRICT))?.type, 'url_private', url)
  })

  it('refuses a name that resolves to a non-public address', async () => {
    assert.equal((await urlProblem('http://localhost/x', STRICT))?.type, 'url_private')
  })

  it('refuses ports other than the listed ones; the flag lifts the port rule too', async () => {
    assert.equal((await urlProblem('http://1.1.1.1:25/', STRICT))?.type, 'url_port')
    assert.equal((await urlProblem('https://93.184.216.34:8443/x', STRICT))?.type, 'url_port')
    assert.equal(await urlProblem('http://93.184.216.34:80/x', STRICT), null)
    assert.equal(await urlProblem('https://93.184.216.34:8443/x', { allowPrivate: false, ports: [8443] }), null)
    assert.equal(
      (await urlProblem('https://93.184.216.34/x', { allowPrivate: false, ports: [8443] }))?.type,
      'url_port',
    )
    assert.equal(await urlProblem('http://1.1.1.1:25/', OPEN), null)
  })

  it('accepts a public address, and anything http(s) when private addresses are allowed', async () => {
    assert.equal(await urlProblem('https://93.184.216.34/hook', STRICT), null)
    assert.equal(await urlProblem('http://127.0.0.1:9/x', OPEN), null)
    assert.equal((await urlProblem('gopher://127.0.0.1/x', OPEN))?.type, 'url_scheme')
  })

  it('the connection lookup refuses a name that resolves to a non-public address', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup('localhost', { all: true }, (err) => resolve(err)),
    )
    assert.match(String(error?.message), /non-public address/)
  })
})
