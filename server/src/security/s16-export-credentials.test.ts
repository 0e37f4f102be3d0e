import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { acrossStakes } from '../db/stake-scope.ts'
import { hashSecret } from '../modules/auth/tokens.ts'
import { createSignupCode } from '../modules/stakes/signup.repository.ts'
import { exportStake, importStake, type StakeExport } from '../modules/stakes/stakes.transfer.ts'
import { linkToken, mailingApp, mailTo } from '../test/accounts.fixtures.ts'
import { ALL_PERMISSIONS, createUser, injectAs, login, signedIn, unique } from '../test/factories.ts'
import { createTestApp } from '../test/harness.ts'
import { createWard, presidency, submit } from '../test/proposals.fixtures.ts'
import { newDevice, startPushService } from '../test/push.fixtures.ts'

type Mailing = Awaited<ReturnType<typeof mailingApp>>

/** Every string of a value, JSON text inside strings opened too. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value)
    if (/^[[{]/.test(value)) {
      try {
        strings(JSON.parse(value), out)
      } catch {
        // not JSON: the string itself is enough
      }
    }
  } else if (Array.isArray(value)) for (const v of value) strings(v, out)
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out)
  return out
}

/** What in an export could be a token: every run of token characters long enough to be one (links split at / # ?). */
function candidates(file: StakeExport): string[] {
  const found = new Set<string>()
  for (const s of strings(file)) {
    for (const piece of s.split(/[^A-Za-z0-9_\-.]+/)) if (piece.length >= 16) found.add(piece)
  }
  return [...found]
}

/**
 * S16 (docs/SECURITY.md "Exports"): after each action that makes a token, a
 * stake export is taken, and no string in it opens anything — tried against
 * every route that takes a token — nor repeats a secret the action made.
 */
describe('S16 a stake export carries no live credential', () => {
  let m: Mailing
  let push: Awaited<ReturnType<typeof startPushService>>
  let admin: Awaited<ReturnType<typeof signedIn>>
  const secrets: { what: string; value: string }[] = []
  let ip = 0

  before(async () => {
    m = await mailingApp({ WEBHOOK_ALLOW_PRIVATE: 'true', PUSH_ALLOW_PRIVATE: 'true' })
    push = await startPushService()
    admin = await signedIn(m.t, { permissions: ALL_PERMISSIONS })
  })
  after(async () => {
    await push?.close()
    await m?.close()
  })

  const takeExport = () => exportStake(m.t.database.db, m.t.database.dialect, m.t.config, 1, m.t.clock.iso())
  const anonymous = () => injectAs(m.t, null)

  /** Every route that accepts a token, tried with `s`: none may open. */
  async function opensNothing(s: string) {
    const remoteAddress = `10.9.${Math.floor(++ip / 250)}.${ip % 250}`
    const tries = [
      await m.t.app.inject({ method: 'GET', url: `/api/auth/invitations/${encodeURIComponent(s)}` }),
      await m.t.app.inject({
        method: 'POST',
        url: `/api/auth/invitations/${encodeURIComponent(s)}`,
        payload: { password: `pw-${unique()}-${unique()}` },
      }),
      await m.t.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: s, new_password: `pw-${unique()}-${unique()}` },
      }),
      await anonymous()('GET', `/api/appointments/book/${encodeURIComponent(s)}`),
      await anonymous()('GET', `/api/speaking/feed/${encodeURIComponent(s)}.ics`),
      await m.t.app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: s } }),
      await injectAs(m.t, s)('GET', '/api/auth/me'),
      await m.t.app.inject({
        method: 'POST',
        url: '/api/stakes',
        remoteAddress,
        payload: {
          code: s,
          stake_name: unique('Stake '),
          email: `${unique('f')}@example.org`,
          fname: 'F',
          lname: 'L',
          password: `pw-${unique()}-${unique()}`,
        },
      }),
    ]
    for (const res of tries) {
      assert.ok(res.statusCode >= 400, `"${s}" opened ${res.raw.req.method} ${res.raw.req.url}: ${res.statusCode}`)
    }
  }

  async function checkExport(after: string) {
    const file = await takeExport()
    const text = JSON.stringify(file)
    for (const secret of secrets) {
      assert.ok(!text.includes(secret.value), `after ${after}: the export holds ${secret.what}`)
    }
    for (const s of candidates(file)) await opensNothing(s)
    for (const row of file.tables.mail_outbox ?? []) {
      assert.equal(row.text_body, '', `after ${after}: a mail body is exported`)
      assert.equal(row.html_body, '')
    }
    return file
  }

  it('holds after each token-making action, and the import keeps working', async () => {
    // An invitation, mailed.
    const invited = await admin.as('POST', '/api/users/', {
      email: `${unique('inv')}@example.org`,
      fname: 'Ivy',
      lname: 'Invited',
      invite: true,
    })
    assert.equal(invited.statusCode, 201, invited.body)
    await m.deliver()
    const invitation = linkToken(mailTo(m.receiver, invited.json().email).at(-1)!, 'welcome')
    secrets.push({ what: 'the invitation token', value: invitation })
    // Sent: its body is gone from the outbox itself, not only from the export.
    const stored = await acrossStakes(() =>
      m.t.database.db.selectFrom('mail_outbox').select(['kind', 'text_body', 'html_body', 'status']).execute(),
    )
    assert.ok(stored.some((r) => r.kind === 'invitation' && r.status === 'sent'))
    for (const r of stored.filter((r) => r.kind === 'invitation'))
      assert.deepEqual([r.text_body, r.html_body], ['', ''])
    await checkExport('an invitation')

    // A password reset requested by its user.
    const user = await createUser(m.t)
    const asked = await m.t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: user.email },
      remoteAddress: '10.8.0.1',
    })
    assert.equal(asked.statusCode, 202, asked.body)
    await m.deliver()
    secrets.push({
      what: 'the reset token',
      value: linkToken(mailTo(m.receiver, user.email).at(-1)!, 'reset-password'),
    })
    await checkExport('a reset request')

    // An administrator's link for a user (an invitation sent again: a new live link).
    const again = await admin.as('POST', `/api/users/${invited.json().id}/invite`)
    assert.equal(again.statusCode, 200, again.body)
    await m.deliver()
    secrets.push({
      what: 'the administrator’s link',
      value: linkToken(mailTo(m.receiver, invited.json().email).at(-1)!, 'welcome'),
    })
    await checkExport('an administrator’s link')

    // A booking link.
    const { president } = await presidency(m.t)
    const windows = await president.as('PUT', '/api/appointments/availability', {
      weekly: [{ weekday: 2, start_minute: 18 * 60, end_minute: 20 * 60 }],
      exceptions: [],
    })
    assert.equal(windows.statusCode, 200, windows.body)
    const offer = await president.as('POST', '/api/appointments/offers', {
      kind: 'temple_recommend',
      name: 'Mary Member',
      email: 'mary@example.org',
      interviewer_id: president.user.id,
      duration_minutes: 30,
    })
    assert.equal(offer.statusCode, 201, offer.body)
    const booking = (offer.json().url as string).split('#')[1]!
    assert.equal((await anonymous()('GET', `/api/appointments/book/${booking}`)).statusCode, 200)
    secrets.push({ what: 'the booking token', value: booking })
    await checkExport('a booking link')

    // A calendar feed.
    const feed = await admin.as('POST', '/api/speaking/feed')
    assert.ok([200, 201].includes(feed.statusCode), feed.body)
    const feedToken = /\/feed\/([A-Za-z0-9_-]+)\.ics$/.exec(feed.json().url as string)![1]!
    secrets.push({ what: 'the feed token', value: feedToken })
    await checkExport('a feed')

    // A passkey challenge.
    const options = await anonymous()('POST', '/api/auth/passkey-login/options')
    assert.equal(options.statusCode, 200, options.body)
    secrets.push({ what: 'the passkey challenge', value: options.json().challenge })
    await checkExport('a passkey challenge')

    // A refresh session (and its access token).
    const session = await login(m.t, user)
    secrets.push({ what: 'the refresh cookie', value: session.refresh })
    secrets.push({ what: 'the access token', value: session.token })
    await checkExport('a sign-in')

    // A signup code (the operator's).
    const code = unique('code-') + unique('-')
    await createSignupCode(m.t.database.db, hashSecret(code), 1, m.t.clock.iso())
    secrets.push({ what: 'the signup code', value: code })
    await checkExport('a signup code')

    // A push device.
    const device = newDevice(push.url(`/${unique('device')}`))
    const added = await admin.as('POST', '/api/notifications/push/devices', { ...device.body, label: 'Phone' })
    assert.equal(added.statusCode, 201, added.body)
    secrets.push({ what: 'the push endpoint', value: device.body.endpoint })
    secrets.push({ what: 'the push auth secret', value: device.body.keys.auth })
    await checkExport('a push device')

    // A webhook: its address (a Slack URL is a credential) and its secret.
    const hookPath = `/services/${unique('T')}/${unique('B')}/${unique('secretpart')}`
    const hook = await admin.as('POST', '/api/webhooks', {
      url: `http://127.0.0.1:9${hookPath}`,
      events: ['comment'],
      format: 'slack',
    })
    assert.equal(hook.statusCode, 201, hook.body)
    secrets.push({ what: 'the webhook URL', value: hookPath })
    secrets.push({ what: 'the webhook secret', value: hook.json().secret })
    const file = await checkExport('a webhook')
    assert.deepEqual(
      (file.tables.webhooks ?? []).map((w) => [w.url, w.secret]),
      [['', undefined]],
      'exported "to re-enter"',
    )

    // The import still works: the webhook comes in silent until its address is entered again.
    const other = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' })
    try {
      const { stakeId } = await importStake(other.database.db, file, {
        unusablePasswordHash: 'x',
        newSecret: () => 'new-secret',
        now: other.clock.iso(),
      })
      const otherAdmin = await acrossStakes(() =>
        other.database.db
          .selectFrom('users')
          .select('id')
          .where('stake_id', '=', stakeId)
          .where('email', '=', admin.user.email)
          .executeTakeFirstOrThrow(),
      )
      assert.ok(otherAdmin.id > 0)
      const pending = await acrossStakes(() =>
        other.database.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('stake_id', '=', stakeId)
          .where('status', '=', 'pending')
          .execute(),
      )
      assert.deepEqual(pending, [], 'an imported mail (without its body) is never sent')
      const hooks = await acrossStakes(() =>
        other.database.db.selectFrom('webhooks').select(['url', 'secret']).where('stake_id', '=', stakeId).execute(),
      )
      assert.deepEqual(hooks, [{ url: '', secret: 'new-secret' }])
    } finally {
      await other.close()
    }
  })

  it('an imported webhook sends nothing until its address is entered again', async () => {
    const webhook = await admin.as('POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/later',
      events: ['comment'],
    })
    assert.equal(webhook.statusCode, 201, webhook.body)
    const id = webhook.json().id as number
    // As an import leaves it.
    await acrossStakes(() => m.t.database.db.updateTable('webhooks').set({ url: '' }).where('id', '=', id).execute())
    const listed = (await admin.as('GET', '/api/webhooks')).json() as { id: number; url: string }[]
    assert.equal(listed.find((w) => w.id === id)?.url, '')
    // An event it subscribes to queues nothing for it.
    const proposal = await submit(admin.as, await createWard(m.t.database.db))
    const comment = await admin.as('POST', `/api/calling-kanban/proposals/${proposal.id}/comments`, {
      comment_text: 'A remark',
    })
    assert.equal(comment.statusCode, 201, comment.body)
    const queued = await m.t.database.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', id)
      .execute()
    assert.deepEqual(queued, [], 'no delivery for a webhook without its address')
    const test = await admin.as('POST', `/api/webhooks/${id}/test`)
    assert.equal(test.statusCode, 409, test.body)
    assert.equal(test.json().code, 'url_required')
    const put = await admin.as('PUT', `/api/webhooks/${id}`, { url: 'http://127.0.0.1:9/again', events: ['comment'] })
    assert.equal(put.statusCode, 200, put.body)
    assert.equal((await admin.as('POST', `/api/webhooks/${id}/test`)).statusCode, 200)
  })
})
