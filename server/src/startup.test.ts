import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { startupBanner, startupTasks } from './startup.ts'
import { useTestApp } from './test/harness.ts'

describe('start-up: the first start shows the administrator one sign-in, later starts only the address', () => {
  const t = useTestApp()

  it('creates the administrator once and frames the URL, email and one-time password', async () => {
    const first = await startupTasks(t.app, t.config, t.database.db)
    assert.ok(first)
    assert.equal(first.email, t.config.adminEmail)
    assert.ok(first.password.length >= 12)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: first.email, password: first.password }).toString(),
    })
    assert.equal(login.statusCode, 200)

    const box = startupBanner('http://127.0.0.1:8000/', first)
    const lines = box.trim().split('\n')
    assert.match(lines[0]!, /^┌─+┐$/)
    assert.match(lines.at(-1)!, /^└─+┘$/)
    assert.ok(
      lines.every((line) => line.length === lines[0]!.length),
      'every line of the box is as wide as its top',
    )
    assert.match(box, /http:\/\/127\.0\.0\.1:8000\//)
    assert.ok(box.includes(first.email))
    assert.ok(box.includes(first.password))
  })

  it('prints the URL only on later starts', async () => {
    const again = await startupTasks(t.app, t.config, t.database.db)
    assert.equal(again, null)
    const box = startupBanner('http://127.0.0.1:8000/', again)
    assert.match(box, /http:\/\/127\.0\.0\.1:8000\//)
    assert.doesNotMatch(box, /password/i)
  })
})
