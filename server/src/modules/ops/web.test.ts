import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../app.ts'
import { parseConfig } from '../../config.ts'
import { createDatabase } from '../../database.ts'
import { migrate } from '../../db/migrate.ts'
import type { FastifyTypebox } from '../../http.ts'
import { TEST_ARGON2 } from '../../test/harness.ts'

describe('serving the web client', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-web-'))
  fs.mkdirSync(path.join(dist, 'assets'))
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Stake</title><div id="root"></div>')
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)')
  const database = createDatabase('sqlite::memory:', { fallbackScope: { stakeId: 1 } })
  let app: FastifyTypebox

  before(async () => {
    await migrate(database.db)
    app = await buildApp({
      config: { ...parseConfig({}), argon2: TEST_ARGON2, webDist: dist },
      db: database.db,
      dialect: 'sqlite',
    })
  })
  after(async () => {
    await app.close()
    await database.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  it('serves index.html at / and at client routes, the built assets as files', async () => {
    for (const url of ['/', '/board', '/proposals/12', '/manage/callings?page=2', '/signin']) {
      const res = await app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, url)
      assert.match(String(res.headers['content-type']), /text\/html/, url)
      assert.match(res.body, /<div id="root">/)
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/app.js' })
    assert.equal(asset.statusCode, 200)
    assert.match(String(asset.headers['content-type']), /javascript/)
  })

  it('never answers API paths with the client page', async () => {
    for (const url of [
      '/api/nothing',
      '/users/abc/def',
      '/callings/1/2/3/4',
      '/calling-kanban/nope',
      '/docs/nothing',
      '/wards/1/x',
    ]) {
      const res = await app.inject({ method: 'GET', url })
      assert.notEqual(res.statusCode, 200, url)
      assert.match(String(res.headers['content-type']), /application\/json/, url)
    }
    const post = await app.inject({ method: 'POST', url: '/board' })
    assert.equal(post.statusCode, 404)
    assert.deepEqual(post.json(), { detail: 'Not found', code: 'not_found' })
  })
})
