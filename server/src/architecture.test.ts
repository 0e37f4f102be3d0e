import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { OUTBOX_TABLES } from './delivery/outbox.ts'
import { serverJobs } from './jobs/jobs.ts'
import { useTestApp } from './test/harness.ts'

/**
 * ARCHITECTURE.md is the newcomer's map: a module, a job or an outbox it does
 * not name is a room the map forgot. These tests list what exists and fail
 * when the document leaves one out, so it stays true as the code grows.
 */
const root = path.resolve(import.meta.dirname, '..', '..')
const architecture = fs.readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8')
const modulesDir = path.join(import.meta.dirname, 'modules')

describe('ARCHITECTURE.md names everything that exists', () => {
  const t = useTestApp()

  it('names every module directory of server/src/modules as `<name>/`', () => {
    const modules = fs
      .readdirSync(modulesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
    assert.ok(modules.length >= 19, `found only ${modules.length} modules`)
    const missing = modules.filter((name) => !new RegExp(`^\\s+${name}/\\s`, 'm').test(architecture))
    assert.deepEqual(missing, [], `modules missing from the tree in ARCHITECTURE.md: ${missing.join(', ')}`)
  })

  it('names every job of jobs/jobs.ts in backticks', () => {
    const jobs = serverJobs({
      db: t.appDb,
      dialect: t.database.dialect,
      clock: t.clock,
      config: t.config,
      log: console,
    })
    assert.ok(jobs.length >= 6, `found only ${jobs.length} jobs`)
    const missing = jobs.map((job) => job.name).filter((name) => !architecture.includes(`\`${name}\``))
    assert.deepEqual(missing, [], `jobs missing from ARCHITECTURE.md: ${missing.join(', ')}`)
  })

  it('names every outbox table in the events diagram', () => {
    const diagram = architecture.slice(architecture.indexOf('## One change, one event'))
    const missing = OUTBOX_TABLES.filter((table) => !diagram.includes(table))
    assert.deepEqual(missing, [], `outboxes missing from the events diagram: ${missing.join(', ')}`)
  })
})
