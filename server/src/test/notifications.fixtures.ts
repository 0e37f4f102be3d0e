import assert from 'node:assert/strict'
import type { Notification } from '@stake/contract'
import type { signedIn } from './factories.ts'

type As = Awaited<ReturnType<typeof signedIn>>['as']

/** The caller's inbox with its counts. */
export async function inbox(as: As, query = '') {
  const res = await as('GET', `/api/notifications${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return {
    items: res.json() as Notification[],
    total: Number(res.headers['x-total-count']),
    unread: Number(res.headers['x-unread-count']),
  }
}

/** What the caller was told about one proposal: the kinds, oldest first. */
export async function kindsAbout(as: As, proposalId: number): Promise<string[]> {
  const { items } = await inbox(as, '?limit=200')
  return items
    .filter((n) => n.proposal_id === proposalId)
    .reverse()
    .map((n) => n.kind)
}
