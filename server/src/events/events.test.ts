import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { AUDIT_ACTIONS, WEBHOOK_EVENTS, type AuditEntry } from '@stake/contract'
import { withTransaction } from '../db/transaction.ts'
import { ALL_PERMISSIONS, signedIn } from '../test/factories.ts'
import { useTestApp } from '../test/harness.ts'
import { bishopOf, createWard, presidency, submit } from '../test/proposals.fixtures.ts'
import { record } from './record.ts'
import type { DomainEvent } from './types.ts'

type User = Awaited<ReturnType<typeof signedIn>>

/** What one event wrote: audit actions, `user:kind` notifications, webhook delivery events. */
interface Effects {
  audit: string[]
  notified: string[]
  deliveries: string[]
}

describe('events: what each kind of event writes, in its transaction', () => {
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: '1' })
  let admin: User
  let bishop: User
  let sp: Awaited<ReturnType<typeof presidency>>
  let proposalId: number

  before(async () => {
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const ward = await createWard(t.database.db)
    bishop = await bishopOf(t, ward)
    sp = await presidency(t)
    const hook = await admin.as('POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: [...WEBHOOK_EVENTS],
    })
    assert.equal(hook.statusCode, 201, hook.body)
    proposalId = (await submit(bishop.as, ward)).id
  })

  const counts = async () => ({
    audit: (await t.database.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0,
    notification:
      (await t.database.db.selectFrom('notifications').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0,
    delivery:
      (await t.database.db.selectFrom('webhook_deliveries').select('id').orderBy('id', 'desc').executeTakeFirst())
        ?.id ?? 0,
  })

  /** Records `event` in a transaction and reads back what it wrote. */
  async function effects(event: DomainEvent): Promise<Effects> {
    const { db } = t.database
    const last = await counts()
    await withTransaction(db, (trx) => record(trx, { config: t.config, dialect: t.database.dialect }, event))
    const audit = await db.selectFrom('audit_log').select('action').where('id', '>', last.audit).orderBy('id').execute()
    const notes = await db
      .selectFrom('notifications')
      .select(['user_id', 'kind'])
      .where('id', '>', last.notification)
      .execute()
    const sent = await db.selectFrom('webhook_deliveries').select('event').where('id', '>', last.delivery).execute()
    return {
      audit: audit.map((r) => r.action),
      notified: notes.map((n) => `${n.user_id}:${n.kind}`).sort(),
      deliveries: sent.map((d) => d.event),
    }
  }

  const by = () => ({ by: admin.user.id, at: t.clock.iso() })
  const to = (users: User[], kind: string) => users.map((u) => `${u.user.id}:${kind}`)
  const voters = () => [sp.president, sp.first, sp.second]
  const auditOnly = AUDIT_ACTIONS.filter((a) => !['proposal.create', 'proposal.stage', 'proposal.decline'].includes(a))

  const table: { name: string; event: () => DomainEvent | Promise<DomainEvent>; expect: () => Effects }[] = [
    ...auditOnly.map((kind) => ({
      name: kind,
      event: () =>
        ({
          ...by(),
          kind: kind as (typeof auditOnly)[number] & DomainEvent['kind'],
          target: null,
          detail: {},
        }) as DomainEvent,
      expect: () => ({ audit: [kind], notified: [], deliveries: [] }),
    })),
    {
      name: 'proposal.create',
      event: () => ({ ...by(), kind: 'proposal.create', proposalId, detail: {} }),
      expect: () => ({
        audit: ['proposal.create'],
        notified: to(voters(), 'vote_needed').sort(),
        deliveries: ['proposal_created'],
      }),
    },
    {
      name: 'proposal.move (to a stage)',
      event: () => ({ ...by(), kind: 'proposal.move', proposalId, from: 'sp_approval', to: 'interview' }),
      expect: () => ({
        audit: ['proposal.stage'],
        notified: to([bishop], 'stage_changed'),
        deliveries: ['stage_changed'],
      }),
    },
    {
      name: 'proposal.move (a decline)',
      event: () => ({ ...by(), kind: 'proposal.move', proposalId, from: 'sp_approval', to: 'declined', note: 'no' }),
      expect: () => ({ audit: ['proposal.decline'], notified: to([bishop], 'declined'), deliveries: ['declined'] }),
    },
    {
      name: 'interview.assign',
      event: () => ({ ...by(), kind: 'interview.assign', proposalId, interviewerId: sp.first.user.id }),
      expect: () => ({ audit: [], notified: to([sp.first], 'interview_assigned'), deliveries: ['interview_assigned'] }),
    },
    {
      name: 'comment.create',
      event: () => ({ ...by(), kind: 'comment.create', proposalId }),
      expect: () => ({ audit: [], notified: to([bishop], 'comment'), deliveries: ['comment'] }),
    },
    {
      name: 'proposal.remind',
      event: () => ({ ...by(), kind: 'proposal.remind', proposalId, automatic: false }),
      expect: () => ({ audit: [], notified: to(voters(), 'reminder').sort(), deliveries: [] }),
    },
  ]

  for (const row of table) {
    it(`${row.name}: exactly its audit entries, notifications and deliveries`, async () => {
      assert.deepEqual(await effects(await row.event()), row.expect())
    })
  }

  it('covers every kind of event', () => {
    const named = new Set(table.map((r) => r.name.split(' ')[0]))
    for (const kind of [
      ...auditOnly,
      'proposal.create',
      'proposal.move',
      'interview.assign',
      'comment.create',
      'proposal.remind',
    ])
      assert.ok(named.has(kind), kind)
  })
})

describe('events: webhook changes are audited, never with the secret (S12)', () => {
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: '1' })

  it('creating, changing and deleting a webhook writes webhook.create/update/delete with the URL and include_names', async () => {
    const admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const url = 'http://127.0.0.1:9/hooks/a'
    const created = await admin.as('POST', '/api/webhooks', { url, events: ['comment'] })
    assert.equal(created.statusCode, 201, created.body)
    const { id, secret } = created.json() as { id: number; secret: string }
    const put = await admin.as('PUT', `/api/webhooks/${id}`, {
      url: `${url}b`,
      events: ['comment'],
      include_names: true,
    })
    assert.equal(put.statusCode, 200, put.body)
    assert.equal((await admin.as('DELETE', `/api/webhooks/${id}`)).statusCode, 204)
    assert.equal((await admin.as('DELETE', `/api/webhooks/${id}`)).statusCode, 404)

    const res = await admin.as('GET', '/api/audit?action=webhook.')
    assert.equal(res.statusCode, 200, res.body)
    const entries = (res.json() as AuditEntry[]).reverse()
    assert.deepEqual(
      entries.map((e) => [e.action, e.target_type, e.target_id, e.detail.url, e.detail.include_names, e.actor_id]),
      [
        ['webhook.create', 'webhook', id, url, false, admin.user.id],
        ['webhook.update', 'webhook', id, `${url}b`, true, admin.user.id],
        ['webhook.delete', 'webhook', id, `${url}b`, true, admin.user.id],
      ],
    )
    const all = await t.database.db.selectFrom('audit_log').select('detail').execute()
    assert.ok(
      all.every((r) => !r.detail.includes(secret)),
      'the secret is in no audit entry',
    )
  })
})
