import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import { sql } from 'kysely'
import { AppError } from '../errors.ts'
import errorsPlugin from '../plugins/errors.ts'
import { dialect, useTestApp } from '../test/harness.ts'
import { unique } from '../test/factories.ts'
import { createDatabase } from '../database.ts'
import { DEFAULT_TIMEOUTS } from './database.ts'
import { isRetryable } from './errors.ts'
import { retrying, withTransaction, type RetryPolicy } from './transaction.ts'

const driverError = (code: string) => Object.assign(new Error(`driver error ${code}`), { code })

/** A policy that records the backoff instead of sleeping (random fixed at its top: the ceilings show). */
function recorded(): { policy: Partial<RetryPolicy>; delays: number[] } {
  const delays: number[] = []
  return { delays, policy: { sleep: async (ms) => void delays.push(ms), random: () => 1 } }
}

describe('isRetryable: contention by err.code only', () => {
  it('deadlock, serialization failure and busy SQLite are retryable; other errors are not', () => {
    for (const code of ['40P01', '40001', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED'])
      assert.ok(isRetryable(driverError(code)), code)
    for (const code of ['23505', '23503', '57P01', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_FULL'])
      assert.ok(!isRetryable(driverError(code)), code)
    assert.ok(!isRetryable(new Error('deadlock detected')), 'the message is not read')
    assert.ok(!isRetryable(null) && !isRetryable(undefined) && !isRetryable({ code: 40001 }))
  })
})

describe('retrying', () => {
  it('runs a function that lost twice to contention a third time, and answers its result', async () => {
    const { policy, delays } = recorded()
    let runs = 0
    const result = await retrying(async () => {
      runs++
      if (runs <= 2) throw driverError(runs === 1 ? '40P01' : 'SQLITE_BUSY')
      return 'done'
    }, policy)
    assert.equal(result, 'done')
    assert.equal(runs, 3)
    assert.deepEqual(delays, [5, 10])
  })

  it('does not run a function again for any other error', async () => {
    for (const error of [driverError('23505'), new AppError(409, 'conflict', 'no')]) {
      let runs = 0
      await assert.rejects(
        retrying(async () => {
          runs++
          throw error
        }, recorded().policy),
        (e) => e === error,
      )
      assert.equal(runs, 1)
    }
  })

  it('gives up after 5 runs with AppError 503 busy and Retry-After, backing off exponentially with jitter', async () => {
    const { policy, delays } = recorded()
    let runs = 0
    const error = await retrying(async () => {
      runs++
      throw driverError('40001')
    }, policy).catch((e: unknown) => e)
    assert.ok(error instanceof AppError)
    assert.equal(error.status, 503)
    assert.equal(error.code, 'busy')
    assert.equal(error.headers['Retry-After'], '1')
    assert.equal(runs, 5)
    assert.deepEqual(delays, [5, 10, 20, 40])
    const jittered: number[] = []
    await retrying(() => Promise.reject(driverError('40P01')), {
      sleep: async (ms) => void jittered.push(ms),
      random: () => 0.5,
    }).catch(() => {})
    assert.deepEqual(jittered, [3, 5, 10, 20])
  })
})

describe('withTransaction', () => {
  const t = useTestApp()
  const wardNamed = async (name: string) =>
    (await t.database.db.selectFrom('wards').select('id').where('name', '=', name).executeTakeFirst()) !== undefined

  it('rolls back each lost run and keeps only the writes of the run that committed', async () => {
    const names = [unique('Ward '), unique('Ward '), unique('Ward ')]
    let runs = 0
    await withTransaction(
      t.database.db,
      async (trx) => {
        const name = names[runs++]!
        const now = new Date().toISOString()
        await trx
          .insertInto('wards')
          .values({ name, name_key: name.toLowerCase(), start_time: 600, created_at: now, updated_at: now })
          .execute()
        if (runs <= 2) throw driverError('40P01')
      },
      { retry: recorded().policy },
    )
    assert.deepEqual(await Promise.all(names.map(wardNamed)), [false, false, true])
  })

  it(
    'PostgreSQL: of two transactions locking two rows in opposite orders, the deadlock victim runs again and both commit',
    { skip: dialect !== 'postgres' },
    async () => {
      const db = t.database.db
      // app_settings: no trigger writes elsewhere, so the two rows are the only locks taken.
      const keys = [unique('lock-a-'), unique('lock-b-')]
      await db
        .insertInto('app_settings')
        .values(keys.map((key) => ({ key, value: '' })))
        .execute()
      let arrived = 0
      let release!: () => void
      const bothHoldOne = new Promise<void>((resolve) => (release = resolve))
      let runs = 0
      const crosswise = (first: string, second: string) =>
        withTransaction(db, async (trx) => {
          runs++
          await sql`update app_settings set value = value || 'x' where key = ${first}`.execute(trx)
          if (++arrived === 2) release()
          await bothHoldOne // on a rerun both have arrived already: no waiting
          await sql`update app_settings set value = value || 'x' where key = ${second}`.execute(trx)
        })
      await Promise.all([crosswise(keys[0]!, keys[1]!), crosswise(keys[1]!, keys[0]!)])
      assert.equal(runs, 3, 'one of the two ran again')
      const rows = await db.selectFrom('app_settings').select('value').where('key', 'in', keys).execute()
      assert.deepEqual(
        rows.map((r) => r.value),
        ['xx', 'xx'],
      )
    },
  )
})

describe('withTransaction on a SQLite file shared by two connections', { skip: dialect !== 'sqlite' }, () => {
  it('a transaction holds the write lock from its start: another connection cannot overtake its snapshot, so it commits in one run', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-busy-'))
    const [mine, other] = [
      createDatabase(`sqlite:${dir}/db.sqlite`, { fallbackScope: { stakeId: 1 } }),
      // A short wait, since both connections share this thread: the other one gives up at once.
      createDatabase(`sqlite:${dir}/db.sqlite`, {
        fallbackScope: { stakeId: 1 },
        timeouts: { ...DEFAULT_TIMEOUTS, sqliteBusyTimeoutMs: 20 },
      }),
    ]
    try {
      await sql`create table counter (id integer primary key, n integer not null)`.execute(mine.db)
      await sql`insert into counter values (1, 0)`.execute(mine.db)
      const overtaking: string[] = []
      let runs = 0
      await withTransaction(
        mine.db,
        async (trx) => {
          runs++
          const { rows } = await sql<{ n: number }>`select n from counter where id = 1`.execute(trx)
          // Another connection tries to write between our read and our write.
          await sql`update counter set n = n + 10 where id = 1`
            .execute(other.db)
            .then(() => overtaking.push('written'))
            .catch((error: { code?: string }) => overtaking.push(String(error.code)))
          await sql`update counter set n = ${rows[0]!.n + 1} where id = 1`.execute(trx)
        },
        { retry: { sleep: async () => {}, random: () => 0 } },
      )
      assert.deepEqual(
        overtaking,
        ['SQLITE_BUSY'],
        'the other connection waited for the lock, in vain, and wrote nothing',
      )
      assert.equal(runs, 1, 'no snapshot was overtaken, so nothing ran again')
      await sql`update counter set n = n + 10 where id = 1`.execute(other.db)
      const { rows } = await sql<{ n: number }>`select n from counter where id = 1`.execute(other.db)
      assert.equal(rows[0]!.n, 11, 'both increments count once the lock is free')
    } finally {
      await mine.close()
      await other.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('escaped contention answers 503 busy', () => {
  it('a lone statement losing to contention answers 503 {code: busy} with Retry-After; other driver errors stay 500', async () => {
    const app = Fastify()
    await app.register(errorsPlugin)
    app.get('/deadlock', async () => {
      throw driverError('40P01')
    })
    app.get('/other', async () => {
      throw driverError('XX000')
    })
    const res = await app.inject({ method: 'GET', url: '/deadlock' })
    assert.equal(res.statusCode, 503)
    assert.equal(res.headers['retry-after'], '1')
    assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail'])
    assert.equal(res.json().code, 'busy')
    assert.equal((await app.inject({ method: 'GET', url: '/other' })).statusCode, 500)
    await app.close()
  })
})
