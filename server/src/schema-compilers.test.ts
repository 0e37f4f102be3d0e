import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from './test/harness.ts'
import { signedIn } from './test/factories.ts'
import { compileEverySchema, schemaCounts } from './schema-compilers.ts'

describe('route schemas compiled on first use', () => {
  const t = useTestApp()

  it('compiles none at start, a route’s own on its first request, and every one of them when asked', async () => {
    const atStart = schemaCounts(t.app)
    assert.ok(atStart.total > 200, `every route's validators and serializers are known: ${atStart.total}`)
    assert.ok(atStart.compiled < atStart.total / 10, `few compiled once ready: ${atStart.compiled} of ${atStart.total}`)

    const user = await signedIn(t)
    const afterSignIn = schemaCounts(t.app).compiled
    assert.ok(afterSignIn > atStart.compiled, 'the sign-in compiled its own')
    const me = await user.as('GET', '/api/auth/me')
    assert.equal(me.statusCode, 200)
    assert.equal(me.json().email, user.user.email)
    const afterMe = schemaCounts(t.app).compiled
    assert.ok(afterMe > afterSignIn, 'GET /auth/me compiled its serializer')
    assert.equal((await user.as('GET', '/api/auth/me')).statusCode, 200)
    assert.equal(schemaCounts(t.app).compiled, afterMe, 'and only once')

    // A wrong request is refused with the validator's own words, compiled on the spot.
    const wrong = await user.as('GET', '/api/users/?limit=201')
    assert.equal(wrong.statusCode, 422)
    assert.ok(JSON.stringify(wrong.json()).includes('limit'), wrong.body)

    // Every schema of every route compiles: a broken one fails here, not on someone's first request.
    compileEverySchema(t.app)
    const all = schemaCounts(t.app)
    assert.equal(all.compiled, all.total)
  })
})
