/** `?next=` after sign-in: only a same-origin path (run with `npm run test:unit -w web`). */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { safeNextPath } from './next.ts'

const FALLBACK = '/board'

describe('safeNextPath', () => {
  it('keeps paths of this app, with their query and hash', () => {
    for (const path of ['/board', '/proposals/12?tab=votes', '/users#top', '/a/b/c'])
      assert.equal(safeNextPath(path, FALLBACK), path)
  })

  it('refuses other origins, protocol-relative and backslash tricks', () => {
    for (const next of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\\/evil.example',
      'javascript:alert(1)',
      'board',
      '',
    ]) {
      assert.equal(safeNextPath(next, FALLBACK), FALLBACK, JSON.stringify(next))
    }
  })

  it('refuses tabs, newlines, spaces and other control characters anywhere', () => {
    for (const next of [
      '/\t/evil.example',
      '/\n/evil.example',
      '/ok\u0000',
      '/ /evil',
      '/a\rb',
      '/x\u007f',
      '/\u2028',
    ]) {
      assert.equal(safeNextPath(next, FALLBACK), FALLBACK, JSON.stringify(next))
    }
  })

  it('refuses null, absurdly long values and the refused paths (the sign-in page itself)', () => {
    assert.equal(safeNextPath(null, FALLBACK), FALLBACK)
    assert.equal(safeNextPath(`/${'a'.repeat(3000)}`, FALLBACK), FALLBACK)
    assert.equal(safeNextPath('/signin?next=/x', FALLBACK, ['/signin']), FALLBACK)
    assert.equal(safeNextPath('/signing-up', FALLBACK, ['/signin']), '/signing-up')
  })
})
