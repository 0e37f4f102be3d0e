import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../test/harness.ts'
import { injectAs, signedIn } from '../test/factories.ts'
import { expectError } from '../test/callings.fixtures.ts'
import { createWard } from '../test/proposals.fixtures.ts'

/** S8: the password-change guard applies to every route reached signed in, public ones included. */
describe('S8 the password-change guard on every signed-in route', () => {
  const t = useTestApp()
  let forced: Awaited<ReturnType<typeof signedIn>>
  let ward: number

  before(async () => {
    forced = await signedIn(t, { forcePasswordReset: true })
    ward = await createWard(t.database.db)
  })

  it('a public route answers 403 password_change_required to a signed-in user who must change his password', async () => {
    for (const url of [`/api/wards/${ward}`, '/api/wards/', `/wards/${ward}`, '/api/callings/', '/api/health']) {
      expectError(await forced.as('GET', url), 403, 'password_change_required')
    }
  })

  it('anonymously (or with a token that does not check out) the same routes stay public', async () => {
    const anonymous = injectAs(t, null)
    assert.equal((await anonymous('GET', `/api/wards/${ward}`)).statusCode, 200)
    assert.equal((await anonymous('GET', '/api/callings/')).statusCode, 200)
    assert.equal((await injectAs(t, 'not-a-token')('GET', `/api/wards/${ward}`)).statusCode, 200)
  })

  it('the exempt routes still answer him', async () => {
    assert.equal((await forced.as('GET', '/api/auth/me')).statusCode, 200)
  })
})
