import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { ALL_PERMISSIONS, createUser, injectAs, login, signedIn } from '../../test/factories.ts'
import { createTestApp } from '../../test/harness.ts'
import { linkToken, mailingApp, mailTo, PUBLIC } from '../../test/accounts.fixtures.ts'

type Mailing = Awaited<ReturnType<typeof mailingApp>>

describe('invitations (docs/api-reference.md §16)', () => {
  let m: Mailing
  let admin: Awaited<ReturnType<typeof signedIn>>

  before(async () => {
    m = await mailingApp()
    admin = await signedIn(m.t, { permissions: ALL_PERMISSIONS })
  })
  after(async () => m?.close())
  beforeEach(async () => {
    m.receiver.mail.length = 0
    // Tests move the clock by days: a fresh access token each time.
    admin.as = injectAs(m.t, (await login(m.t, admin.user)).token)
  })

  const anonymous = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) })

  /** A user made by the administrator through the API (the way the users page does). */
  const addLeader = async (i: number, language?: 'es', invite = false) => {
    const res = await admin.as('POST', '/api/users/', {
      email: `leader${i}-${Date.now()}@example.org`,
      fname: `Leader${i}`,
      lname: 'Smith',
      ...(invite ? { invite: true } : {}),
    })
    assert.equal(res.statusCode, 201, res.body)
    const user = res.json() as { id: number; email: string; temporary_password?: string; invitation?: unknown }
    if (language) await m.t.database.db.updateTable('users').set({ language }).where('id', '=', user.id).execute()
    return user
  }
  const invite = async (id: number) => {
    const res = await admin.as('POST', `/api/users/${id}/invite`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as { sent: boolean; url?: string }
  }

  it('ten leaders added with invite: true each get the mail, follow its link and are signed in', async () => {
    const leaders = []
    for (let i = 0; i < 10; i++) leaders.push(await addLeader(i, undefined, true))
    for (const leader of leaders) {
      assert.equal(leader.temporary_password, undefined)
      assert.deepEqual(leader.invitation, { sent: true })
    }
    const round = await m.deliver()
    assert.equal(round.sent, 10)
    for (const [i, leader] of leaders.entries()) {
      const [mail, ...more] = mailTo(m.receiver, leader.email)
      assert.ok(mail, `a mail to ${leader.email}`)
      assert.equal(more.length, 0)
      assert.match(mail.subject, /invited/)
      assert.match(mail.text, new RegExp(`Hello Leader${i},`))
      const token = linkToken(mail, 'welcome')
      // The Welcome page reads who it is for, then sets the password and signs in.
      const info = await anonymous('GET', `/api/auth/invitations/${token}`)
      assert.equal(info.statusCode, 200, info.body)
      assert.deepEqual(info.json(), { email: leader.email, fname: `Leader${i}`, lname: 'Smith' })
      const accepted = await anonymous('POST', `/api/auth/invitations/${token}`, { password: `a-fine-password-${i}!` })
      assert.equal(accepted.statusCode, 200, accepted.body)
      assert.ok(accepted.cookies.some((c) => c.name === 'refresh_token' && c.httpOnly))
      const me = await injectAs(m.t, accepted.json().access_token)('GET', '/api/auth/me')
      assert.equal(me.statusCode, 200)
      assert.equal(me.json().id, leader.id)
      assert.equal(me.json().force_password_reset, false)
      // A route behind the password-change guard works at once.
      assert.equal((await injectAs(m.t, accepted.json().access_token)('GET', '/api/wards/')).statusCode, 200)
      // The link is spent.
      assert.equal((await anonymous('GET', `/api/auth/invitations/${token}`)).statusCode, 404)
      const again = await anonymous('POST', `/api/auth/invitations/${token}`, { password: 'another-password-9' })
      assert.equal(again.statusCode, 404)
      // The chosen password signs in.
      const login = await m.t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ username: leader.email, password: `a-fine-password-${i}!` }).toString(),
      })
      assert.equal(login.statusCode, 200)
    }
    const pending = (await admin.as('GET', '/api/users/invitations')).json() as { user_id: number }[]
    assert.ok(leaders.every((l) => !pending.some((p) => p.user_id === l.id)))
  })

  it('Spanish-speaking users get the mail in Spanish', async () => {
    const leader = await addLeader(20, 'es')
    await invite(leader.id)
    await m.deliver()
    const [mail] = mailTo(m.receiver, leader.email)
    assert.match(mail!.subject, /invitado/)
    assert.match(mail!.text, /Hola Leader20/)
    linkToken(mail!, 'welcome')
  })

  it('a new invitation voids the old one; the users page lists who has not accepted', async () => {
    const leader = await addLeader(30)
    await invite(leader.id)
    await invite(leader.id)
    await m.deliver()
    // Both mails arrive (in either order): only one of the two links still works.
    const links = mailTo(m.receiver, leader.email).map((mail) => linkToken(mail, 'welcome'))
    assert.equal(links.length, 2)
    const answers = await Promise.all(links.map((token) => anonymous('GET', `/api/auth/invitations/${token}`)))
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 404])
    const pending = (await admin.as('GET', '/api/users/invitations')).json() as {
      user_id: number
      expired: boolean
      sent_at: string
      expires_at: string
    }[]
    const mine = pending.filter((p) => p.user_id === leader.id)
    assert.equal(mine.length, 1)
    assert.equal(mine[0]!.expired, false)
    assert.equal(Date.parse(mine[0]!.expires_at) - Date.parse(mine[0]!.sent_at), 7 * 24 * 3600 * 1000)
  })

  it('the link lives 7 days', async () => {
    const leader = await addLeader(40)
    await invite(leader.id)
    await m.deliver()
    const token = linkToken(mailTo(m.receiver, leader.email)[0]!, 'welcome')
    m.t.clock.advance(7 * 24 * 3600 - 60)
    assert.equal((await anonymous('GET', `/api/auth/invitations/${token}`)).statusCode, 200)
    m.t.clock.advance(61)
    assert.equal((await anonymous('GET', `/api/auth/invitations/${token}`)).statusCode, 404)
    const late = await anonymous('POST', `/api/auth/invitations/${token}`, { password: 'a-fine-password-40' })
    assert.equal(late.statusCode, 404)
    admin.as = injectAs(m.t, (await login(m.t, admin.user)).token)
    const pending = (await admin.as('GET', '/api/users/invitations')).json() as { user_id: number; expired: boolean }[]
    assert.equal(pending.find((p) => p.user_id === leader.id)?.expired, true)
  })

  it('the password follows the rules of §3 (422) and the link stays usable after a refused one', async () => {
    const leader = await addLeader(50)
    await invite(leader.id)
    await m.deliver()
    const token = linkToken(mailTo(m.receiver, leader.email)[0]!, 'welcome')
    for (const password of ['short', 'password123', 'x'.repeat(257)]) {
      const res = await anonymous('POST', `/api/auth/invitations/${token}`, { password })
      assert.equal(res.statusCode, 422, password)
    }
    for (const body of [{}, { password: 12345678 }, 'nope']) {
      const res = await anonymous('POST', `/api/auth/invitations/${token}`, body)
      assert.equal(res.statusCode, 422, JSON.stringify(body))
    }
    assert.equal((await anonymous('GET', `/api/auth/invitations/${token}`)).statusCode, 200)
  })

  it('two acceptances at once: one wins, the other is 404', async () => {
    const leader = await addLeader(60)
    await invite(leader.id)
    await m.deliver()
    const token = linkToken(mailTo(m.receiver, leader.email)[0]!, 'welcome')
    const answers = await Promise.all(
      [1, 2].map((n) => anonymous('POST', `/api/auth/invitations/${token}`, { password: `a-fine-password-6${n}` })),
    )
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 404])
  })

  it('malformed or unknown tokens are 404, never 500', async () => {
    for (const token of ['x', 'A'.repeat(43), 'A'.repeat(90)]) {
      assert.equal((await anonymous('GET', `/api/auth/invitations/${token}`)).statusCode, 404, token)
      const res = await anonymous('POST', `/api/auth/invitations/${token}`, { password: 'a-fine-password-7' })
      assert.equal(res.statusCode, 404, token)
    }
    // Refused before any lookup: too long for a path parameter (414), or not a valid one (422).
    for (const token of ['%00', '..%2F..', 'A'.repeat(201)]) {
      const res = await anonymous('GET', `/api/auth/invitations/${token}`)
      assert.ok([404, 414, 422].includes(res.statusCode), `${token}: ${res.statusCode}`)
    }
  })

  it('a roster-only person (no email) cannot be invited: 409 no_email; nor created with invite: true', async () => {
    const roster = await admin.as('POST', '/api/users/', { fname: 'Rhea', lname: 'Roster' })
    assert.equal(roster.statusCode, 201, roster.body)
    const res = await admin.as('POST', `/api/users/${roster.json().id}/invite`)
    assert.equal(res.statusCode, 409)
    assert.equal(res.json().code, 'no_email')
    const both = await admin.as('POST', '/api/users/', { fname: 'Rhea', lname: 'Roster', invite: true })
    assert.equal(both.statusCode, 409)
    assert.equal(both.json().code, 'no_email')
  })

  it('an invitation stops working when the person becomes roster-only (email removed)', async () => {
    const leader = await addLeader(90, undefined, true)
    await m.deliver()
    const token = linkToken(mailTo(m.receiver, leader.email)[0]!, 'welcome')
    const put = await admin.as('PUT', `/api/users/${leader.id}`, { email: null, fname: 'Leader90', lname: 'Smith' })
    assert.equal(put.statusCode, 200, put.body)
    assert.equal((await anonymous('GET', `/api/auth/invitations/${token}`)).statusCode, 404)
  })

  it('who may invite: users.manage, S2; a deactivated user is 409; an unknown id 404', async () => {
    const plain = await signedIn(m.t)
    const leader = await addLeader(70)
    assert.equal((await plain.as('POST', `/api/users/${leader.id}/invite`)).statusCode, 403)
    assert.equal((await plain.as('GET', '/api/users/invitations')).statusCode, 403)
    const manager = await signedIn(m.t, { permissions: ['users.manage'] })
    const president = await createUser(m.t, { permissions: ALL_PERMISSIONS })
    const refused = await manager.as('POST', `/api/users/${president.id}/invite`)
    assert.equal(refused.statusCode, 403)
    assert.equal(refused.json().code, 'forbidden')
    assert.equal((await manager.as('POST', `/api/users/${leader.id}/invite`)).statusCode, 200)
    const gone = await createUser(m.t, { active: false })
    const inactive = await admin.as('POST', `/api/users/${gone.id}/invite`)
    assert.equal(inactive.statusCode, 409)
    assert.equal(inactive.json().code, 'inactive')
    assert.equal((await admin.as('POST', '/api/users/999999/invite')).statusCode, 404)
  })

  it('an invitation is audited (user.invite, auth.invitation_accept) without its token', async () => {
    const leader = await addLeader(80)
    await invite(leader.id)
    await m.deliver()
    const token = linkToken(mailTo(m.receiver, leader.email)[0]!, 'welcome')
    assert.equal(
      (await anonymous('POST', `/api/auth/invitations/${token}`, { password: 'a-fine-password-80' })).statusCode,
      200,
    )
    const rows = await m.t.database.db.selectFrom('audit_log').selectAll().where('target_id', '=', leader.id).execute()
    const actions = rows.map((r) => r.action)
    assert.ok(actions.includes('user.invite'))
    assert.ok(actions.includes('auth.invitation_accept'))
    assert.ok(!JSON.stringify(rows).includes(token))
    const stored = await m.t.database.db.selectFrom('account_tokens').selectAll().execute()
    assert.ok(!JSON.stringify(stored).includes(token), 'only the hash is kept')
  })
})

describe('invitations without mail: the link is handed to the administrator', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>
  before(async () => {
    t = await createTestApp({ PUBLIC_URL: PUBLIC })
  })
  after(async () => t?.close())

  it('{sent:false, url} with the Welcome link; nothing goes to the outbox; the link works', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const leader = await createUser(t, { forcePasswordReset: true })
    const res = await admin.as('POST', `/api/users/${leader.id}/invite`)
    assert.equal(res.statusCode, 200, res.body)
    const { sent, url } = res.json()
    assert.equal(sent, false)
    assert.match(url, new RegExp(`^${PUBLIC}/welcome#[A-Za-z0-9_-]{43}$`))
    const outbox = await t.database.db.selectFrom('mail_outbox').selectAll().execute()
    assert.equal(outbox.length, 0)
    const made = await admin.as('POST', '/api/users/', {
      email: 'off@example.org',
      fname: 'Off',
      lname: 'Line',
      invite: true,
    })
    assert.equal(made.statusCode, 201, made.body)
    assert.equal(made.json().temporary_password, undefined)
    assert.equal(made.json().invitation.sent, false)
    assert.match(made.json().invitation.url, new RegExp(`^${PUBLIC}/welcome#[A-Za-z0-9_-]{43}$`))
    const token = url.split('#')[1]
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${token}`,
      payload: { password: 'a-fine-password-1' },
    })
    assert.equal(accepted.statusCode, 200, accepted.body)
  })
})
