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

describe('webhook URLs (flag off)', () => {
  it('refuses non-http schemes, credentials and unparsable text', async () => {
    assert.equal((await urlProblem('ftp://93.184.216.34/x', false))?.type, 'url_scheme')
    assert.equal((await urlProblem('file:///etc/passwd', false))?.type, 'url_scheme')
    assert.equal((await urlProblem('javascript:alert(1)', false))?.type, 'url_scheme')
    assert.equal((await urlProblem('https://user:pw@93.184.216.34/x', false))?.type, 'url_credentials')
    assert.equal((await urlProblem('not a url', false))?.type, 'url_parsing')
  })

  it('refuses literal non-public hosts in every spelling the URL parser accepts', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://2130706433/x', // 127.0.0.1 as one number
      'http://0x7f.1/x',
      'http://127.1/x',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[fd00::1]:8080/x',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/x',
    ])
      assert.equal((await urlProblem(url, false))?.type, 'url_private', url)
  })

  it('refuses a name that resolves to a non-public address', async () => {
    assert.equal((await urlProblem('http://localhost:9/x', false))?.type, 'url_private')
  })

  it('accepts a public address, and anything http(s) when private addresses are allowed', async () => {
    assert.equal(await urlProblem('https://93.184.216.34/hook', false), null)
    assert.equal(await urlProblem('http://127.0.0.1:9/x', true), null)
    assert.equal((await urlProblem('gopher://127.0.0.1/x', true))?.type, 'url_scheme')
  })

  it('the connection lookup refuses a name that resolves to a non-public address', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup('localhost', { all: true }, (err) => resolve(err)),
    )
    assert.match(String(error?.message), /non-public address/)
  })
})
