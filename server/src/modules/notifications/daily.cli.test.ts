import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, it } from 'node:test'
import { createDatabase } from '../../database.ts'
import { migrate } from '../../db/migrate.ts'
import { dialect } from '../../test/harness.ts'

const cli = (file: string, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../../cli.ts'), 'daily', ...args], {
    env: { ...process.env, DATABASE_URL: `sqlite:${file}`, STAKE_TIMEZONE: 'UTC' },
    encoding: 'utf8',
  })

describe('npm run cli -- daily', { skip: dialect !== 'sqlite' && 'runs in the SQLite pass only' }, () => {
  it('runs the daily jobs once a day, records the day, and runs them again only with --force', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-daily-'))
    try {
      const file = path.join(dir, 'stake.db')
      const database = createDatabase(`sqlite:${file}`, { fallbackScope: { stakeId: 1 } })
      await migrate(database.db)
      await database.close()

      const first = cli(file)
      assert.equal(first.status, 0, first.stderr)
      const today = new Date().toISOString().slice(0, 10)
      assert.match(first.stdout, new RegExp(`Daily jobs for ${today}: 0 digest\\(s\\), 0 reminder\\(s\\) queued`))
      const second = cli(file)
      assert.equal(second.status, 0, second.stderr)
      assert.match(second.stdout, new RegExp(`already ran on ${today}`))
      const forced = cli(file, '--force')
      assert.equal(forced.status, 0, forced.stderr)
      assert.match(forced.stdout, /Daily jobs for/)

      const check = createDatabase(`sqlite:${file}`, { fallbackScope: { stakeId: 1 } })
      const runs = await check.db.selectFrom('daily_runs').selectAll().execute()
      await check.close()
      assert.equal(runs.length, 1)
      assert.equal(runs[0]!.day, today)
      assert.ok(runs[0]!.finished_at)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
