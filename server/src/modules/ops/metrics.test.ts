import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import { createTestApp, useTestApp, type TestApp } from '../../test/harness.ts'
import { signedIn, unique } from '../../test/factories.ts'
import { insertOutbox } from '../notifications/outbox.repository.ts'
import { inStake } from '../../db/stake-scope.ts'
import { otherStake } from '../../test/stakes.fixtures.ts'
import { insertTestDelivery, insertWebhook } from '../webhooks/webhooks.repository.ts'

const TOKEN = 'scrape-token-0123456789abcdef'

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The Prometheus text format's sample lines (comments and blank lines skipped). */
function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
      assert.ok(match, `a sample line: ${line}`)
      const labels: Record<string, string> = {}
      for (const [, key, value] of match[2]?.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[key!] = value!
      return { name: match[1]!, labels, value: Number(match[3]) }
    })
}

async function scrape(t: TestApp): Promise<Sample[]> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
  assert.equal(res.statusCode, 200, res.body)
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/)
  return parseSamples(res.body)
}

const value = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value

describe('GET /metrics with METRICS_TOKEN set', () => {
  const t = useTestApp({ METRICS_TOKEN: TOKEN })

  it('returns 401 without a token, with a wrong one or with another scheme', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}X`,
      'Bearer x',
      `Basic ${TOKEN}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      })
      assert.equal(res.statusCode, 401, String(authorization))
      assert.equal(res.json().detail, 'Not authenticated')
      assert.doesNotMatch(res.body, /http_request_duration_seconds/)
    }
  })

  it('records request durations by route pattern and status, never the raw URL', async () => {
    const { as } = await signedIn(t, { permissions: ['wards.manage'] })
    const created = await as('POST', '/api/wards', { name: unique('Ward '), start_time: 600 })
    assert.equal(created.statusCode, 201, created.body)
    const wardId = created.json().id as number
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/wards/${wardId}` })).statusCode, 200)
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/wards/${wardId + 1000}` })).statusCode, 404)
    assert.equal((await t.app.inject({ method: 'GET', url: `/no/such/${unique()}` })).statusCode, 404)

    const samples = await scrape(t)
    const count = (route: string, status: string) =>
      value(samples, 'http_request_duration_seconds_count', { method: 'GET', route, status })
    assert.equal(count('/api/wards/:ward_id', '200'), 1)
    assert.equal(count('/api/wards/:ward_id', '404'), 1)
    assert.equal(count('(unmatched)', '404'), 1)
    assert.equal(value(samples, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/wards' }), 1)
    const bucket = value(samples, 'http_request_duration_seconds_bucket', {
      route: '/api/wards/:ward_id',
      status: '200',
      le: '+Inf',
    })
    assert.equal(bucket, 1)
    const routes = new Set(samples.map((s) => s.labels.route).filter(Boolean))
    assert.ok(
      [...routes].every((route) => !/\d/.test(route!)),
      `no ids or raw URLs in route labels: ${[...routes].join(' ')}`,
    )
  })

  it('reports event-loop lag and process memory (the default metrics)', async () => {
    const samples = await scrape(t)
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      const sample = samples.find((s) => s.name === name)
      assert.ok(sample && Number.isFinite(sample.value), name)
    }
  })

  it('reads the mail and webhook outbox depth and failures from the database at scrape time', async () => {
    const before = await scrape(t)
    const gauge = (samples: Sample[], name: string, outbox: string) => value(samples, name, { outbox }) ?? NaN
    const now = t.clock.iso()
    const mail = (status: 'pending' | 'sending' | 'sent' | 'failed') => ({
      user_id: null,
      to_address: `${unique('to')}@example.org`,
      kind: 'proposal',
      subject: 'Subject',
      text_body: 'Text',
      html_body: '<p>Text</p>',
      status,
      next_attempt_at: now,
      created_at: now,
    })
    await insertOutbox(t.database.db, [mail('pending'), mail('sending'), mail('sent'), mail('failed')])
    // Another stake's queue counts too: the operator watches the deployment's.
    const { stakeId } = await otherStake(t)
    await inStake(stakeId, () => insertOutbox(t.database.db, [mail('pending')]))
    const { user } = await signedIn(t)
    const webhookId = await insertWebhook(
      t.database.db,
      {
        url: 'https://hooks.example.org/x',
        format: 'json',
        include_names: false,
        secret: unique(),
        created_by: user.id,
      },
      now,
    )
    const deliveries = await Promise.all([1, 2, 3, 4].map(() => insertTestDelivery(t.database.db, webhookId, now)))
    await t.database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('id', '=', deliveries[0]!)
      .execute()
    await t.database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered' })
      .where('id', '=', deliveries[1]!)
      .execute()

    const after = await scrape(t)
    const delta = (name: string, outbox: string) => gauge(after, name, outbox) - gauge(before, name, outbox)
    assert.equal(delta('stake_outbox_pending', 'mail'), 3, 'pending and sending mail')
    assert.equal(delta('stake_outbox_failed', 'mail'), 1)
    assert.equal(delta('stake_outbox_pending', 'webhook'), 2)
    assert.equal(delta('stake_outbox_failed', 'webhook'), 1)
  })

  it('is not part of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    assert.ok(!Object.keys(doc.paths).some((path) => path.includes('metrics')))
  })
})

describe('GET /metrics without METRICS_TOKEN', () => {
  const t = useTestApp()

  it('returns 404 exactly like an unknown route, with or without a token', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/no-such-route' })
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers })
      assert.equal(res.statusCode, 404)
      assert.equal(res.body, unknown.body)
      assert.equal(res.headers['content-type'], unknown.headers['content-type'])
    }
  })
})

describe('GET /metrics and the log', () => {
  it('never writes the token to the log, accepted or refused', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString())
        done()
      },
    })
    const t = await createTestApp({ METRICS_TOKEN: TOKEN }, { logger: { level: 'trace', stream } })
    try {
      await scrape(t)
      await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}-wrong` } })
      t.app.log.info({ headers: { authorization: `Bearer ${TOKEN}` } }, 'probe')
    } finally {
      await t.close()
    }
    assert.ok(
      lines.some((line) => line.includes('"url":"/metrics"')),
      'the scrape is logged',
    )
    assert.ok(!lines.join('').includes(TOKEN.slice(6)), 'the token is not')
  })
})
