import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import { addSeconds } from '../clock.ts'
import { parseConfig } from '../config.ts'
import { createUser, signedIn, unique } from '../test/factories.ts'
import { createTestApp, useTestApp, type TestApp } from '../test/harness.ts'
import { insertOutbox } from '../modules/notifications/outbox.repository.ts'
import { purgeExpired } from '../modules/ops/housekeeping.ts'
import { startupTasks } from '../startup.ts'

const form = (username: string, password: string) => ({
  method: 'POST' as const,
  url: '/api/auth/login',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ username, password }).toString(),
})

async function refreshCookieSecure(t: TestApp): Promise<boolean | undefined> {
  const user = await createUser(t)
  const res = await t.app.inject(form(user.email, user.password))
  assert.equal(res.statusCode, 200, res.body)
  return res.cookies.find((c) => c.name === 'refresh_token')!.secure
}

/** S15: COOKIE_SECURE follows PUBLIC_URL, and a contradiction is said at start. */
describe('S15 COOKIE_SECURE default from PUBLIC_URL', () => {
  const behindProxy = useTestApp({ HOST: '127.0.0.1', PUBLIC_URL: 'https://stake.example.org/admin' })
  const plainLocal = useTestApp({ HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1:8000' })

  it('a local HOST behind an https:// PUBLIC_URL sends the refresh cookie Secure', async () => {
    assert.equal(await refreshCookieSecure(behindProxy), true)
  })

  it('an http:// PUBLIC_URL (a laptop) keeps it off; without PUBLIC_URL the HOST decides as before', async () => {
    assert.equal(await refreshCookieSecure(plainLocal), undefined)
    assert.equal(parseConfig({}).cookieSecure, false)
    assert.equal(parseConfig({ HOST: '0.0.0.0' }).cookieSecure, true)
    assert.equal(parseConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'http://intranet.local' }).cookieSecure, false)
    assert.equal(parseConfig({ PUBLIC_URL: 'https://x.example', COOKIE_SECURE: 'false' }).cookieSecure, false)
  })

  it('warns at start when PUBLIC_URL is https:// but COOKIE_SECURE=false, and not otherwise', async () => {
    const startWith = async (env: Record<string, string>) => {
      const lines: string[] = []
      const stream = new Writable({
        write(chunk, _enc, done) {
          lines.push(chunk.toString())
          done()
        },
      })
      const t = await createTestApp(env, { logger: { level: 'info', stream } })
      try {
        await startupTasks(t.app, t.config, t.appDb)
      } finally {
        await t.close()
      }
      return lines.map((line) => JSON.parse(line) as { level: number; msg: string })
    }
    const warned = await startWith({ PUBLIC_URL: 'https://stake.example.org', COOKIE_SECURE: 'false' })
    const warning = warned.find((l) => l.level === 40 && l.msg.includes('COOKIE_SECURE'))
    assert.ok(warning, JSON.stringify(warned))
    assert.match(warning.msg, /PUBLIC_URL is https/)
    const quiet = await startWith({ PUBLIC_URL: 'https://stake.example.org' })
    assert.ok(!quiet.some((l) => l.level === 40))
  })
})

/** S15: a finished mail keeps no body after 7 days, and no row after AUDIT_RETENTION_DAYS. */
describe('S15 mail retention', () => {
  const t = useTestApp({ AUDIT_RETENTION_DAYS: '30' })
  const DAY = 24 * 3600

  async function mail(status: 'pending' | 'sent' | 'failed', createdDaysAgo: number, sentDaysAgo: number | null) {
    const subject = unique('subject-')
    const now = t.clock.now()
    await insertOutbox(t.database.db, [
      {
        user_id: null,
        to_address: `${unique('to')}@example.org`,
        kind: 'stage_changed',
        subject,
        text_body: 'Juan Pérez, Ward clerk',
        html_body: '<p>Juan Pérez, Ward clerk</p>',
        status,
        next_attempt_at: addSeconds(now, -createdDaysAgo * DAY).toISOString(),
        created_at: addSeconds(now, -createdDaysAgo * DAY).toISOString(),
        sent_at: sentDaysAgo === null ? null : addSeconds(now, -sentDaysAgo * DAY).toISOString(),
      },
    ])
    return subject
  }
  const row = (subject: string) =>
    t.database.db
      .selectFrom('mail_outbox')
      .select(['text_body', 'html_body', 'status'])
      .where('subject', '=', subject)
      .executeTakeFirst()

  it('empties the body of mail sent or failed over 7 days ago; keeps newer and pending bodies', async () => {
    const oldSent = await mail('sent', 9, 8)
    const oldFailed = await mail('failed', 8, null)
    const recentSent = await mail('sent', 10, 6) // waited long, sent 6 days ago: still within 7 days
    const pending = await mail('pending', 20, null)
    const purged = await purgeExpired(t.database.db, t.clock.now(), { auditDays: t.config.auditRetentionDays })
    assert.equal(purged.mailBodies, 2)
    for (const subject of [oldSent, oldFailed]) {
      const r = await row(subject)
      assert.deepEqual([r?.text_body, r?.html_body], ['', ''], subject)
    }
    for (const subject of [recentSent, pending]) assert.equal((await row(subject))?.text_body, 'Juan Pérez, Ward clerk')
    // The row itself is still listed to users.manage.
    const { as } = await signedIn(t, { permissions: ['users.manage'] })
    const listed = (await as('GET', '/api/outbox?limit=100')).json() as { subject: string }[]
    assert.ok(listed.some((m) => m.subject === oldSent))
  })

  it('deletes finished mail rows after AUDIT_RETENTION_DAYS, never a pending one', async () => {
    const expired = await mail('sent', 32, 31)
    const expiredFailed = await mail('failed', 31, null)
    const kept = await mail('sent', 29, 29)
    const pending = await mail('pending', 40, null)
    const purged = await purgeExpired(t.database.db, t.clock.now(), { auditDays: t.config.auditRetentionDays })
    assert.equal(purged.mail, 2)
    assert.equal(await row(expired), undefined)
    assert.equal(await row(expiredFailed), undefined)
    assert.ok(await row(kept))
    assert.ok(await row(pending))
    const { as } = await signedIn(t, { permissions: ['users.manage'] })
    const listed = (await as('GET', '/api/outbox?limit=100')).json() as { subject: string }[]
    assert.ok(!listed.some((m) => m.subject === expired))
  })
})
