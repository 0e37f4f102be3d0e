import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds } from '../clock.ts'
import { up as claimsAsWebhooks } from '../db/migrations/20261127000100_mail_claims_as_webhooks.ts'
import { insertOutbox } from '../modules/notifications/outbox.repository.ts'
import { useTestApp } from '../test/harness.ts'
import { claimDue, recordAttempt } from './outbox.ts'

describe('outbox claims (delivery/outbox.ts)', () => {
  const t = useTestApp()

  const addMail = async (n: number) => {
    const now = t.clock.iso()
    const row = (i: number) => ({
      user_id: null,
      to_address: `claim-${now}-${i}@example.org`,
      kind: 'proposal',
      subject: 'Subject',
      text_body: 'Text',
      html_body: '<p>Text</p>',
      next_attempt_at: now,
      created_at: now,
    })
    await insertOutbox(
      t.database.db,
      Array.from({ length: n }, (_, i) => row(i)),
    )
  }
  const claim = (limit: number, leaseSeconds = 600) => {
    const now = t.clock.now()
    const leaseUntil = addSeconds(now, leaseSeconds)
    return claimDue(t.database.db, t.database.dialect, 'mail_outbox', { now, leaseUntil, limit })
  }

  it('concurrent claimers take disjoint rows, each attempt counted once, and leased rows are not taken again', async () => {
    await addMail(40)
    const batches = await Promise.all([claim(15), claim(15), claim(15), claim(15)])
    const ids = batches.flat().map((row) => row.id)
    assert.equal(ids.length, 40)
    assert.equal(new Set(ids).size, 40, 'no row claimed twice')
    assert.ok(batches.flat().every((row) => row.attempts === 1 && row.status === 'pending'))
    assert.deepEqual(await claim(50), [])
    for (const row of batches.flat()) {
      await recordAttempt(t.database.db, 'mail_outbox', row, { error: null, now: t.clock.now() })
    }
  })

  it('a row whose lease ran out is claimed again, and the first worker can no longer record its outcome', async () => {
    await addMail(1)
    const [first] = await claim(1, 60)
    assert.ok(first)
    t.clock.advance(59)
    assert.deepEqual(await claim(1), [], 'still leased')
    t.clock.advance(1)
    const [second] = await claim(1)
    assert.equal(second?.id, first.id)
    assert.equal(second.attempts, 2)
    const late = await recordAttempt(t.database.db, 'mail_outbox', first, { error: null, now: t.clock.now() })
    assert.equal(late, 'sent', 'the outcome it computed')
    const row = () =>
      t.database.db.selectFrom('mail_outbox').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()
    assert.equal((await row()).status, 'pending', 'the late write is ignored')
    assert.equal(
      await recordAttempt(t.database.db, 'mail_outbox', second, { error: 'SMTP 451', now: t.clock.now() }),
      'retry',
    )
    const after = await row()
    assert.deepEqual([after.status, after.attempts, after.last_error], ['pending', 2, 'SMTP 451'])
    // The third try at 2 min after creation (the schedule), at least 90 s (its gap) after this one.
    assert.equal(Date.parse(after.next_attempt_at), t.clock.now().getTime() + 90_000)
  })
  it('migration 20261127000100: a message left `sending` by the old worker is due again when its lease ends', async () => {
    const now = t.clock.iso()
    const leaseEnd = addSeconds(t.clock.now(), 600).toISOString()
    const [row] = await t.database.db
      .insertInto('mail_outbox')
      .values({
        user_id: null,
        to_address: 'old-claim@example.org',
        kind: 'proposal',
        subject: 'Subject',
        text_body: 'Text',
        html_body: '<p>Text</p>',
        status: 'sending',
        claimed_until: leaseEnd,
        next_attempt_at: now,
        created_at: now,
      })
      .returning('id')
      .execute()
    await claimsAsWebhooks(t.database.db)
    const after = await t.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', '=', row!.id)
      .executeTakeFirstOrThrow()
    assert.deepEqual([after.status, after.attempts, after.next_attempt_at], ['pending', 1, leaseEnd])
    assert.deepEqual(await claim(1), [], 'leased until the old claim ends')
    t.clock.advance(600)
    assert.ok((await claim(10)).some((claimed) => claimed.id === row!.id))
  })
})
