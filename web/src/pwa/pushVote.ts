/**
 * One tap from a push notification. A notification about a vote
 * owed has two buttons, Approve and Reject. Tapping one makes the service
 * worker open the proposal's page and keep the choice for that page alone;
 * the page claims it over a MessageChannel and casts it with the same undo
 * as "Needs me". The choice never travels in the URL: a link someone sends
 * can open the page, never vote.
 */

/** The message a page sends its service worker to take the vote tapped on a notification. */
export const CLAIM_PUSH_VOTE = 'CLAIM_PUSH_VOTE'

/** How long a tapped choice waits for its page to claim it. */
export const PUSH_VOTE_TTL_MS = 60_000

/** The query a page opened from a notification carries. */
const FROM_PUSH = 'from=push'

export interface ClaimPushVote {
  type: typeof CLAIM_PUSH_VOTE
  proposal: number
}

/** true: approve, false: reject, null: a tap on the notification itself (or anything else). */
export function voteOfAction(action: string | undefined): boolean | null {
  return action === 'approve' ? true : action === 'reject' ? false : null
}

/** The proposal a notification's page shows (`/proposals/12`), or null. */
export function proposalOfUrl(url: string): number | null {
  const match = /^\/proposals\/(\d+)(?:[?#]|$)/.exec(url)
  return match ? Number(match[1]) : null
}

/** The page to open for a notification: a proposal's page says it was opened from a push. */
export function openedFromPush(url: string): string {
  if (proposalOfUrl(url) === null) return url
  return url.includes('?') ? `${url}&${FROM_PUSH}` : `${url}?${FROM_PUSH}`
}

/** Asks this page's service worker for the vote tapped on a notification about `proposal` (null: none). */
export function claimPushVote(proposal: number, timeoutMs = 2000): Promise<boolean | null> {
  const controller = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null
  if (!controller) return Promise.resolve(null)
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    const timer = setTimeout(() => resolve(null), timeoutMs)
    channel.port1.onmessage = (event: MessageEvent<{ approved?: unknown }>) => {
      clearTimeout(timer)
      resolve(typeof event.data?.approved === 'boolean' ? event.data.approved : null)
    }
    controller.postMessage({ type: CLAIM_PUSH_VOTE, proposal } satisfies ClaimPushVote, [channel.port2])
  })
}
