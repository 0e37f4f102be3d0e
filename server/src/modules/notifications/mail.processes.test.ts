import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { type Database } from '../../db/database.ts'
import { createDatabase } from '../../database.ts'
import { dialect } from '../../test/harness.ts'
import { startServer, waitFor, type ServerProcess } from '../../test/process.ts'
import { SmtpReceiver } from '../../test/smtp-receiver.ts'

const MESSAGES = 300

describe(
  'two server processes on one PostgreSQL deliver each queued mail exactly once (docs/api-reference.md §11)',
  { skip: dialect !== 'postgres' && 'PostgreSQL pass only' },
  () => {
    const adminUrl = process.env.TEST_PG_URL!
    const name = `${process.env.TEST_PG_TEMPLATE}_f_${crypto.randomBytes(6).toString('hex')}`
    let receiver: SmtpReceiver
    let database: Database
    const servers: ServerProcess[] = []

    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(statement).finally(() => client.end())
    }

    before(async () => {
      await admin(`CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_PG_TEMPLATE}`)
      receiver = await SmtpReceiver.start()
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      database = createDatabase(url.toString(), { fallbackScope: { stakeId: 1 } })
      const now = new Date().toISOString()
      await database.db
        .insertInto('mail_outbox')
        .values(
          Array.from({ length: MESSAGES }, (_, i) => ({
            user_id: null,
            to_address: `voter${i}@example.org`,
            kind: 'reminder',
            subject: `message ${i}`,
            text_body: `body ${i}`,
            html_body: `<p>body ${i}</p>`,
            next_attempt_at: now,
            claimed_until: null,
            last_error: null,
            created_at: now,
            sent_at: null,
          })),
        )
        .execute()
      const env = { DATABASE_URL: url.toString(), SMTP_URL: receiver.url(), SHUTDOWN_DRAIN_MS: '100' }
      servers.push(...(await Promise.all([startServer(env), startServer(env)])))
    })

    after(async () => {
      for (const server of servers) await server.kill()
      await database?.close()
      await receiver?.close()
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    })

    it('every message reaches the SMTP server once, and each process stops cleanly', async () => {
      const unsent = async () => {
        const row = await database.db
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('status', '<>', 'sent')
          .executeTakeFirstOrThrow()
        return Number(row.n)
      }
      assert.ok(await waitFor(async () => (await unsent()) === 0, 60_000), `${await unsent()} left unsent`)
      // Both stopped (their workers finish the round in progress): nothing can be sent any more.
      for (const server of servers) server.child.kill('SIGTERM')
      const codes = await Promise.all(servers.map((s) => s.exited))
      assert.deepEqual(codes, [0, 0], servers.map((s) => s.output()).join('\n'))
      assert.equal(receiver.mail.length, MESSAGES)
      assert.equal(new Set(receiver.mail.map((m) => m.subject)).size, MESSAGES)
      for (const m of receiver.mail) assert.deepEqual(m.to, [`voter${m.subject.split(' ')[1]}@example.org`])
    })
  },
)
