import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { ALL_PERMISSIONS, signedIn } from '../../test/factories.ts'
import { useTestApp } from '../../test/harness.ts'
import { createWard, move, submit } from '../../test/proposals.fixtures.ts'

const URL = '/api/calling-kanban/proposals'

/** docs/api-reference.md §2: no input, however malformed, produces a 500; every error has the contract's body. */
describe('proposals: malformed input never gives a 500', () => {
  const t = useTestApp()
  let as: Awaited<ReturnType<typeof signedIn>>['as']
  let id: number
  let atInterview: number

  before(async () => {
    const manager = await signedIn(t, { permissions: ALL_PERMISSIONS })
    as = manager.as
    const ward = await createWard(t.database.db)
    id = (await submit(as, ward)).id
    atInterview = (await submit(as, ward, { is_release: true })).id
    await move(as, id, 'advance', 'sp_approval')
  })

  const ids = ['0', '-1', '2147483648', '99999999999999999999', '1.5', 'abc', '%00', '1e3', '0x10']
  const texts: unknown[] = [
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x'.repeat(100_000),
    12,
    true,
    null,
    [],
    ['a'],
    {},
    { a: 1 },
  ]
  const dates = [
    '',
    'now',
    '2026-02-30T00:00:00Z',
    '2026-01-01T23:59:60Z',
    '+275760-01-01T00:00:00Z',
    '9999-12-31T23:59:59-23:59',
    '0000-01-01T00:00:00Z',
    '2026-01-01T00:00:00',
  ]

  /** Below 500, and an error answer has the contract's `detail`. */
  const expectNoServerError = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await as(method, url, body)
    assert.ok(
      res.statusCode < 500,
      `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
    )
    if (res.statusCode >= 400) assert.ok('detail' in res.json(), `${method} ${url}: no detail`)
  }
  /** A lone surrogate cannot be percent-encoded: sent as the bytes a careless client would send. */
  const enc = (value: unknown) => {
    try {
      return encodeURIComponent(String(value))
    } catch {
      return '%ED%A0%80'
    }
  }
  const body = (overrides: Record<string, unknown>) => ({
    fname: 'A',
    lname: 'B',
    proposed_calling: 'C',
    ward_id: 1,
    ...overrides,
  })

  it('answers malformed path ids on every route without a 500', async () => {
    for (const bad of ids) {
      await expectNoServerError('GET', `${URL}/${bad}`)
      await expectNoServerError('PUT', `${URL}/${bad}`, body({}))
      await expectNoServerError('DELETE', `${URL}/${bad}`)
      for (const sub of ['comments', 'approvals', 'interview', 'history'])
        await expectNoServerError('GET', `${URL}/${bad}/${sub}`)
      await expectNoServerError('PUT', `${URL}/${id}/comments/${bad}`, { comment_text: 'x' })
      await expectNoServerError('DELETE', `${URL}/${id}/comments/${bad}`)
      await expectNoServerError('POST', `${URL}/${bad}/advance?from_stage=sp_approval`)
    }
  })

  it('answers malformed bodies and queries without a 500', async () => {
    for (const text of texts) {
      for (const field of ['fname', 'lname', 'proposed_calling', 'spouse_name', 'ward_id', 'submitter', 'is_release']) {
        await expectNoServerError('POST', URL, body({ [field]: text, ...(field === 'fname' ? {} : { fname: text }) }))
      }
      await expectNoServerError('POST', `${URL}/${id}/comments`, { comment_text: text, proposal_id: text })
      await expectNoServerError('POST', `${URL}/${id}/decline`, { reason: text, x: 1 })
      await expectNoServerError('GET', `${URL}?q=${enc(text)}&limit=${enc(text)}`)
    }
    for (const query of [
      'q=%FF%FE',
      'q=%',
      'stage=nope',
      'ward_id=0',
      'is_release=maybe',
      'limit=-1',
      'limit=201',
      'offset=-1',
      'offset=2147483648',
      'q=' + 'x'.repeat(201),
    ]) {
      await expectNoServerError('GET', `${URL}?${query}`)
    }
    for (const approved of ['', 'maybe', '2', 'approved=true'])
      await expectNoServerError('POST', `${URL}/${id}/approvals?approved=${approved}`)
    for (const stage of ['', 'nope', 'SP_APPROVAL'])
      await expectNoServerError('POST', `${URL}/${id}/revert?from_stage=${stage}`)
  })

  it('answers odd interviewer ids and date-times without a 500', async () => {
    for (const bad of [...ids, ''])
      await expectNoServerError('POST', `${URL}/${atInterview}/interview?interviewer_id=${bad}`)
    for (const date of dates) {
      await expectNoServerError(
        'POST',
        `${URL}/${atInterview}/interview?interviewer_id=1&scheduled_for=${encodeURIComponent(date)}`,
      )
      await expectNoServerError(
        'POST',
        `${URL}/${atInterview}/interview/complete?completion_date=${encodeURIComponent(date)}`,
      )
    }
  })

  it('answers 4xx to bodies that are not JSON objects', async () => {
    for (const raw of ['', 'null', '[]', '"x"', '{', '{"fname":']) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: {
          authorization: `Bearer ${(await signedIn(t, { permissions: ALL_PERMISSIONS })).token}`,
          'content-type': 'application/json',
        },
        payload: raw,
      })
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${JSON.stringify(raw)} → ${res.statusCode} ${res.body}`)
    }
  })
})
