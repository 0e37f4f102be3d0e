import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeEach, describe, it } from 'node:test'
import { createDatabase } from '../../database.ts'
import { migrate } from '../../db/migrate.ts'
import { createUser, login } from '../../test/factories.ts'
import { dialect, useTestApp } from '../../test/harness.ts'
import { REFRESH_GRACE_SECONDS } from '../auth/auth.service.ts'
import { THROTTLE } from '../auth/attempts.ts'
import { insertUser } from '../users/users.repository.ts'
import { housekeeping, purgeExpired } from './housekeeping.ts'

const DAY = 24 * 3600

describe('housekeeping: purgeExpired', () => {
  const t = useTestApp()
  const db = () => t.database.db
  const purge = () => purgeExpired(db(), t.clock.now())
  const refresh = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/refresh', cookies: { refresh_token: cookie } })
  const sessionOf = (cookie: string) =>
    db().selectFrom('sessions').selectAll().where('id', '=', cookie.split('.')[0]!).executeTakeFirst()

  // Every test starts from a clean slate: far past whatever earlier tests left, all of it purged.
  beforeEach(async () => {
    t.clock.advance(30 * DAY)
    await purge()
  })

  it('deletes sessions past expiry and keeps live ones, which still refresh', async () => {
    const user = await createUser(t)
    const old = await login(t, user)
    t.clock.advance(t.config.sessionTtlSeconds - 60)
    const recent = await login(t, user)
    t.clock.advance(60) // `old` expires exactly now; `recent` has almost a week left

    assert.deepEqual(await purge(), {
      sessions: 1,
      refreshGrace: 0,
      throttle: 0,
      limits: 0,
      audit: 0,
      mailBodies: 0,
      mail: 0,
    })
    assert.equal(await sessionOf(old.refresh), undefined)
    assert.ok(await sessionOf(recent.refresh), 'the live session is kept')
    assert.equal((await refresh(recent.refresh)).statusCode, 200)
  })

  it('forgets the previous refresh token once its grace has passed, and only then', async () => {
    const user = await createUser(t)
    const first = await login(t, user)
    const rotated = await refresh(first.refresh)
    const current = rotated.cookies.find((c) => c.name === 'refresh_token')!.value

    t.clock.advance(REFRESH_GRACE_SECONDS)
    assert.deepEqual(await purge(), {
      sessions: 0,
      refreshGrace: 0,
      throttle: 0,
      limits: 0,
      audit: 0,
      mailBodies: 0,
      mail: 0,
    })
    assert.notEqual((await sessionOf(current))!.previous_token_hash, null, 'still within the grace')
    assert.equal((await refresh(first.refresh)).statusCode, 200, 'the grace still answers')

    t.clock.advance(1)
    assert.deepEqual(await purge(), {
      sessions: 0,
      refreshGrace: 1,
      throttle: 0,
      limits: 0,
      audit: 0,
      mailBodies: 0,
      mail: 0,
    })
    assert.equal((await sessionOf(current))!.previous_token_hash, null)
    assert.equal((await refresh(current)).statusCode, 200, 'the session itself lives on')
  })

  it('deletes throttle rows whose window ended and hold no lock; keeps counting and locked ones', async () => {
    const at = (secondsAgo: number) => new Date(t.clock.now().getTime() - secondsAgo * 1000).toISOString()
    const row = (key: string, windowSecondsAgo: number, lockedUntil: string | null) => ({
      scope: 'account',
      key,
      failures: 3,
      window_start: at(windowSecondsAgo),
      locked_until: lockedUntil,
    })
    const window = THROTTLE.windowSeconds
    await db()
      .insertInto('login_throttle')
      .values([
        row('stale', window + 1, null),
        row('stale-lock-ended', window + 1, at(1)),
        row('counting', window - 1, null),
        row('locked', window + 1, at(-60)),
      ])
      .execute()

    assert.deepEqual(await purge(), {
      sessions: 0,
      refreshGrace: 0,
      throttle: 2,
      limits: 0,
      audit: 0,
      mailBodies: 0,
      mail: 0,
    })
    const left = await db().selectFrom('login_throttle').select('key').orderBy('key').execute()
    assert.deepEqual(
      left.map((r) => r.key),
      ['counting', 'locked'],
    )
  })

  it('is invisible to sign-in: a purged key counts failures from one, as an ended window would', async () => {
    const user = await createUser(t)
    const fail = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ username: user.email, password: 'wrong' }).toString(),
      })
    for (let i = 0; i < THROTTLE.accountFailures - 1; i++) assert.equal((await fail()).statusCode, 401)
    t.clock.advance(THROTTLE.windowSeconds + 1)
    assert.ok((await purge()).throttle >= 1)
    assert.equal((await fail()).statusCode, 401, 'one failure after the purge does not lock')
    const rows = await db().selectFrom('login_throttle').select(['scope', 'failures']).execute()
    assert.ok(rows.length > 0 && rows.every((r) => r.failures === 1))
  })

  it("the server's housekeeping purges as soon as it starts, logs the counts, and stops cleanly", async () => {
    const user = await createUser(t)
    const { refresh: cookie } = await login(t, user)
    t.clock.advance(t.config.sessionTtlSeconds)
    const logged: unknown[] = []
    const log = { info: (data: unknown) => logged.push(data), error: (data: unknown) => logged.push(data) }

    const purging = housekeeping(db(), t.clock, log as unknown as Parameters<typeof housekeeping>[2])
    purging.start()
    await purging.stop() // waits for the run in progress

    assert.equal(await sessionOf(cookie), undefined)
    assert.deepEqual(logged, [
      { purged: { sessions: 1, refreshGrace: 0, throttle: 0, limits: 0, audit: 0, mailBodies: 0, mail: 0 } },
    ])
  })
})

describe('housekeeping: npm run cli -- purge', { skip: dialect !== 'sqlite' && 'runs in the SQLite pass only' }, () => {
  it('purges a file database and says how many rows went', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-purge-'))
    try {
      const file = path.join(dir, 'stake.db')
      const database = createDatabase(`sqlite:${file}`, { fallbackScope: { stakeId: 1 } })
      await migrate(database.db)
      const stamp = (ms: number) => new Date(Date.now() + ms).toISOString()
      const user = await insertUser(database.db, {
        email: 'a@example.org',
        fname: 'A',
        lname: 'B',
        password_hash: 'not a hash',
        force_password_reset: false,
        now: stamp(0),
      })
      const session = (id: string, expiresInMs: number) => ({
        id,
        user_id: user.id,
        token_hash: id.padEnd(64, '0'),
        created_at: stamp(-DAY * 1000),
        expires_at: stamp(expiresInMs),
        last_used_at: stamp(-DAY * 1000),
        user_agent: null,
        ip: null,
      })
      await database.db
        .insertInto('sessions')
        .values([session('expired', -1000), session('live', DAY * 1000)])
        .execute()
      await database.close()

      const cli = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(import.meta.dirname, '../../cli.ts'), 'purge'],
        {
          env: { ...process.env, DATABASE_URL: `sqlite:${file}` },
          encoding: 'utf8',
        },
      )
      assert.equal(cli.status, 0, cli.stderr)
      assert.match(
        cli.stdout,
        /Purged 1 expired session\(s\), 0 expired refresh grace\(s\), 0 stale login-throttle row\(s\), 0 audit entr\(ies\) past retention, 0 mail bod\(ies\) and 0 mail row\(s\) past retention\./,
      )

      const after = createDatabase(`sqlite:${file}`, { fallbackScope: { stakeId: 1 } })
      const ids = (await after.db.selectFrom('sessions').select('id').execute()).map((r) => r.id)
      await after.close()
      assert.deepEqual(ids, ['live'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
