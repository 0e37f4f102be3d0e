import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, beforeEach, describe, it } from 'node:test'
import { PASSWORD_RESET_ANSWER } from '@stake/contract'
import { ALL_PERMISSIONS, createUser, injectAs, login, signedIn } from '../../test/factories.ts'
import { createTestApp } from '../../test/harness.ts'
import { linkToken, mailingApp, mailTo, PUBLIC } from '../../test/accounts.fixtures.ts'

type Mailing = Awaited<ReturnType<typeof mailingApp>>

describe('forgotten password (docs/api-reference.md §16)', () => {
  let m: Mailing
  const lines: string[] = []
  let ip = 0

  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    m = await mailingApp({}, { logger: { level: 'info', stream } })
  })
  after(async () => m?.close())
  beforeEach(() => {
    m.receiver.mail.length = 0
    ip++ // each test from its own address, so the address limit is tested alone
  })

  const from = () => `10.0.${Math.floor(ip / 250)}.${ip % 250}`
  const ask = (email: unknown, address = from()) =>
    m.t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email } as object,
      remoteAddress: address,
    })
  const confirm = (token: unknown, new_password: unknown) =>
    m.t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, new_password } as object,
    })
  const signIn = (email: string, password: string) =>
    m.t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: email, password }).toString(),
    })
  const resetLink = async (email: string) => {
    assert.equal((await ask(email)).statusCode, 202)
    await m.deliver()
    const mails = mailTo(m.receiver, email)
    assert.equal(mails.length, 1)
    m.receiver.mail.length = 0
    return linkToken(mails[0]!, 'reset-password')
  }

  it('a leader who forgot the password gets back in without anyone’s help; every session ends', async () => {
    const leader = await signedIn(m.t, { fname: 'Rosa' })
    const other = await login(m.t, leader.user)
    const res = await ask(leader.user.email.toUpperCase())
    assert.equal(res.statusCode, 202)
    assert.deepEqual(res.json(), { detail: PASSWORD_RESET_ANSWER, mail: true })
    await m.deliver()
    const [mail] = mailTo(m.receiver, leader.user.email)
    assert.ok(mail)
    assert.match(mail.text, /Hello Rosa,/)
    const token = linkToken(mail, 'reset-password')
    const done = await confirm(token, 'my-new-secret-77')
    assert.equal(done.statusCode, 200, done.body)
    // Every session ended: the access token stops at once, the refresh cookie too.
    assert.equal((await leader.as('GET', '/api/auth/me')).statusCode, 401)
    const refresh = await m.t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { refresh_token: other.refresh },
    })
    assert.equal(refresh.statusCode, 401)
    assert.equal((await signIn(leader.user.email, leader.user.password)).statusCode, 401)
    assert.equal((await signIn(leader.user.email, 'my-new-secret-77')).statusCode, 200)
    // Single use.
    const again = await confirm(token, 'my-other-secret-78')
    assert.equal(again.statusCode, 400)
    assert.equal(again.json().code, 'invalid_token')
    const audit = await m.t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'auth.password_reset')
      .where('target_id', '=', leader.user.id)
      .execute()
    assert.equal(audit.length, 1)
  })

  it('a user forced to change the password is not any more after a reset', async () => {
    const user = await createUser(m.t, { forcePasswordReset: true })
    const token = await resetLink(user.email)
    assert.equal((await confirm(token, 'my-new-secret-81')).statusCode, 200)
    const { token: access } = await login(m.t, { email: user.email, password: 'my-new-secret-81' })
    assert.equal((await injectAs(m.t, access)('GET', '/api/wards/')).statusCode, 200)
  })

  it('the link lives 30 minutes; a newer link voids the older', async () => {
    const user = await createUser(m.t)
    const first = await resetLink(user.email)
    const second = await resetLink(user.email)
    assert.equal((await confirm(first, 'my-new-secret-82')).json().code, 'invalid_token')
    m.t.clock.advance(30 * 60 + 1)
    const late = await confirm(second, 'my-new-secret-82')
    assert.equal(late.statusCode, 400)
    assert.equal(late.json().code, 'invalid_token')
  })

  it('unknown, malformed tokens: 400 invalid_token; a bad password: 422 and the link still works', async () => {
    for (const token of ['', 'x', 'A'.repeat(43), 'A'.repeat(200)]) {
      const res = await confirm(token, 'my-new-secret-83')
      assert.equal(res.statusCode, 400, token)
      assert.equal(res.json().code, 'invalid_token')
    }
    for (const body of [{ token: 1, new_password: 'x' }, {}, { token: 'A'.repeat(43) }]) {
      const res = await m.t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: body })
      assert.equal(res.statusCode, 422, JSON.stringify(body))
    }
    const user = await createUser(m.t)
    const token = await resetLink(user.email)
    assert.equal((await confirm(token, 'short')).statusCode, 422)
    assert.equal((await confirm(token, 'password123')).statusCode, 422)
    assert.equal((await confirm(token, 'my-new-secret-84')).statusCode, 200)
  })

  it('existing, unknown and deactivated addresses: identical status and body; only the first gets mail', async () => {
    const active = await createUser(m.t)
    const inactive = await createUser(m.t, { active: false })
    const answers = await Promise.all(
      [active.email, 'nobody-here@example.org', inactive.email].map(async (email) => ask(email)),
    )
    for (const a of answers) {
      assert.equal(a.statusCode, 202)
      assert.equal(a.body, answers[0]!.body)
      assert.equal(a.headers['content-type'], answers[0]!.headers['content-type'])
    }
    await m.deliver()
    assert.equal(mailTo(m.receiver, active.email).length, 1)
    assert.equal(m.receiver.mail.length, 1)
    for (const bad of [12, null, '', 'x'.repeat(300)]) assert.equal((await ask(bad)).statusCode, 422)
  })

  it('at most 3 mails per account per hour (the answer does not change)', async () => {
    const user = await createUser(m.t)
    for (let i = 0; i < 5; i++) {
      const res = await ask(user.email, `10.9.0.${i}`)
      assert.equal(res.statusCode, 202)
      assert.deepEqual(res.json(), { detail: PASSWORD_RESET_ANSWER, mail: true })
    }
    await m.deliver()
    assert.equal(mailTo(m.receiver, user.email).length, 3)
    m.t.clock.advance(3601)
    m.receiver.mail.length = 0
    assert.equal((await ask(user.email, '10.9.0.9')).statusCode, 202)
    await m.deliver()
    assert.equal(mailTo(m.receiver, user.email).length, 1)
  })

  it('20 requests per client address per hour, then 429 too_many_attempts with Retry-After', async () => {
    const address = '10.8.0.1'
    for (let i = 0; i < 20; i++) assert.equal((await ask(`someone${i}@example.org`, address)).statusCode, 202)
    const refused = await ask('someone@example.org', address)
    assert.equal(refused.statusCode, 429)
    assert.equal(refused.json().code, 'too_many_attempts')
    assert.ok(Number(refused.headers['retry-after']) > 0)
    assert.equal((await ask('someone@example.org', '10.8.0.2')).statusCode, 202, 'another address is not held')
    m.t.clock.advance(3601)
    assert.equal((await ask('someone@example.org', address)).statusCode, 202)
  })

  it("an administrator's reset link is mailed when mail is on: 200 {sent: true}, no link in the answer", async () => {
    const admin = await signedIn(m.t, { permissions: ALL_PERMISSIONS })
    const member = await signedIn(m.t, { fname: 'Tomas' })
    const res = await m.t.app.inject({
      method: 'POST',
      url: `/api/users/${member.user.id}/reset-link`,
      headers: { authorization: `Bearer ${admin.token}` },
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json(), { sent: true })
    await m.deliver()
    const [mail] = mailTo(m.receiver, member.user.email)
    assert.ok(mail)
    const done = await confirm(linkToken(mail, 'reset-password'), 'mailed-by-admin-44')
    assert.equal(done.statusCode, 200, done.body)
  })

  it('tokens are never in logs, audit, outbox answers or any answer but the mail', async () => {
    const admin = await signedIn(m.t, { permissions: ['users.manage'] })
    const user = await createUser(m.t)
    lines.length = 0
    const token = await resetLink(user.email)
    assert.equal((await confirm(token, 'my-new-secret-85')).statusCode, 200)
    const invited = await createUser(m.t)
    const sent = await admin.as('POST', `/api/users/${invited.id}/invite`)
    assert.equal(sent.statusCode, 200)
    await m.deliver()
    const welcome = linkToken(mailTo(m.receiver, invited.email)[0]!, 'welcome')
    const info = await m.t.app.inject({ method: 'GET', url: `/api/auth/invitations/${welcome}` })
    assert.equal(info.statusCode, 200)
    const accepted = await m.t.app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${welcome}`,
      payload: { password: 'my-new-secret-86' },
    })
    assert.equal(accepted.statusCode, 200)
    const answers = [
      sent.body,
      info.body,
      accepted.body,
      (await admin.as('GET', '/api/outbox')).body,
      (await admin.as('GET', '/api/audit?limit=200')).body,
      (await admin.as('GET', '/api/users/invitations')).body,
    ]
    const audit = await m.t.database.db.selectFrom('audit_log').selectAll().execute()
    for (const secret of [token, welcome, 'my-new-secret-85', 'my-new-secret-86']) {
      assert.ok(!lines.join('\n').includes(secret), 'not in the logs')
      assert.ok(!JSON.stringify(audit).includes(secret), 'not in the audit log')
      for (const body of answers) assert.ok(!body.includes(secret), 'not in an answer')
    }
    // The request lines name the route pattern, not the token in the path.
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request')
    assert.ok(
      requests.some((l) => l.url === '/api/auth/invitations/:token'),
      JSON.stringify(requests.slice(-3)),
    )
  })
})

describe('forgotten password: the time does not tell whether the account exists', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>
  before(async () => {
    // Mail configured (nothing listens: the worker does not run in tests), so a message is written for the real account.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', PUBLIC_URL: PUBLIC })
  })
  after(async () => t?.close())

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    return (sorted[9]! + sorted[10]!) / 2
  }

  it('existing, unknown and deactivated: medians over 20 requests each differ by less than 10 ms', async () => {
    const existing = await Promise.all(Array.from({ length: 20 }, () => createUser(t)))
    const deactivated = await Promise.all(Array.from({ length: 20 }, () => createUser(t, { active: false })))
    const unknown = Array.from({ length: 20 }, (_, i) => `nobody-${i}@example.org`)
    const times: Record<string, number[]> = { existing: [], unknown: [], deactivated: [] }
    const bodies = new Set<string>()
    // Interleaved, each from its own address (the address limit is not what is measured).
    for (let i = 0; i < 20; i++) {
      for (const [kind, email] of [
        ['existing', existing[i]!.email],
        ['unknown', unknown[i]!],
        ['deactivated', deactivated[i]!.email],
      ] as const) {
        const started = process.hrtime.bigint()
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/password-reset',
          payload: { email },
          remoteAddress: `10.7.${i}.${kind.length}`,
        })
        times[kind]!.push(Number(process.hrtime.bigint() - started) / 1e6)
        assert.equal(res.statusCode, 202)
        bodies.add(res.body)
      }
    }
    assert.equal(bodies.size, 1)
    const medians = Object.values(times).map(median)
    const spread = Math.max(...medians) - Math.min(...medians)
    assert.ok(spread < 10, `medians ${medians.map((x) => x.toFixed(2)).join(' / ')} ms`)
    console.log(
      `# reset timing medians (existing / unknown / deactivated): ${medians.map((x) => x.toFixed(2)).join(' / ')} ms`,
    )
    const outbox = await t.database.db.selectFrom('mail_outbox').select('to_address').execute()
    assert.equal(outbox.length, 20, 'a message for each existing account only')
  })
})
