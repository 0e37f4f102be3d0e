/// <reference lib="webworker" />
import { cleanupOutdatedCaches, precacheAndRoute, PrecacheFallbackPlugin } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { NetworkOnly } from 'workbox-strategies'
import { API_PATH } from '@stake/contract/routes'
import {
  CLAIM_PUSH_VOTE,
  openedFromPush,
  proposalOfUrl,
  PUSH_VOTE_TTL_MS,
  voteOfAction,
  type ClaimPushVote,
} from './pwa/pushVote'

declare const self: ServiceWorkerGlobalScope

/**
 * The service worker (docs/api-reference.md §13, "installable"). It keeps the app shell —
 * the built, content-hashed files and this build's index.html — so the client
 * opens without a connection. Rules:
 * - A page load asks the network first (4 s), so a deploy's index.html is used
 *   at once; only when the network fails is this build's copy served.
 * - Nothing else is cached: API answers, the refresh cookie's routes, the
 *   calendar feed and anything signed in go to the network untouched (no
 *   route matches them, so the worker does not even see their bodies).
 * - A new version waits until the user accepts "Reload" (the client's
 *   UpdatePrompt posts SKIP_WAITING); old caches are cleaned once it is active.
 */

/** A path naming a file (the .ics feed, a download) is never answered with the shell. */
const FILE_PATH = /\.[A-Za-z0-9]+$/

// Registered before the precache route, so a page load is never served cache-first.
registerRoute(
  new NavigationRoute(
    new NetworkOnly({ networkTimeoutSeconds: 4, plugins: [new PrecacheFallbackPlugin({ fallbackURL: 'index.html' })] }),
    { denylist: [API_PATH, FILE_PATH] },
  ),
)

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

/** Votes tapped on a notification, by proposal, until the page opened for them claims them (pwa/pushVote.ts). */
const tappedVotes = new Map<number, { approved: boolean; at: number; claimed(): void }>()

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting()
  if (data?.type === CLAIM_PUSH_VOTE && event.ports[0]) {
    const proposal = (data as ClaimPushVote).proposal
    const tapped = tappedVotes.get(proposal)
    tappedVotes.delete(proposal)
    const fresh = tapped && Date.now() - tapped.at < PUSH_VOTE_TTL_MS
    event.ports[0].postMessage({ approved: fresh ? tapped.approved : null })
    tapped?.claimed()
  }
})

/** What a push carries (server/src/modules/push/push.repository.ts PushPayload). */
interface PushPayload {
  title?: string
  body?: string
  url?: string
  tag?: string
  /** A vote owed: Approve and Reject, in the recipient's language. */
  actions?: { action?: unknown; title?: unknown }[]
  /** The recipient's unread count: the app icon's badge (where the platform has one). */
  unread?: unknown
}

/**
 * Push notifications: a push from the server shows a notification
 * with its text; tapping it opens (or focuses) the app on the proposal. A vote
 * owed has Approve and Reject buttons: the page opened casts the one tapped,
 * with an undo. The payload is decrypted by the browser; nothing of it is kept here.
 */
self.addEventListener('push', (event) => {
  let data: PushPayload
  try {
    data = (event.data?.json() ?? {}) as PushPayload
  } catch {
    data = { body: event.data?.text() }
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/'
  const actions = (Array.isArray(data.actions) ? data.actions : [])
    .filter((a) => voteOfAction(String(a?.action)) !== null && typeof a.title === 'string')
    .map((a) => ({ action: String(a.action), title: String(a.title) }))
  // `actions` is in the standard but not yet in TypeScript's NotificationOptions.
  const options: NotificationOptions & { actions?: { action: string; title: string }[] } = {
    body: data.body ?? '',
    tag: data.tag,
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    data: { url },
    ...(actions.length > 0 && proposalOfUrl(url) !== null ? { actions } : {}),
  }
  const badge = typeof data.unread === 'number' && data.unread >= 0 ? data.unread : null
  const nav = self.navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void> }
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(data.title || 'Stake Administration', options),
      badge !== null && nav.setAppBadge ? nav.setAppBadge(badge).catch(() => undefined) : undefined,
    ]),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = new URL((event.notification.data as { url?: string } | null)?.url ?? '/', self.location.origin)
  const path = `${url.pathname}${url.search}`
  const proposal = proposalOfUrl(path)
  const approved = voteOfAction(event.action)
  let claimed: Promise<void> = Promise.resolve()
  if (proposal !== null && approved !== null) {
    claimed = new Promise((resolve) => tappedVotes.set(proposal, { approved, at: Date.now(), claimed: resolve }))
  }
  event.waitUntil(
    (async () => {
      await openPage(new URL(openedFromPush(path), self.location.origin).href)
      // The worker stays alive until the page has taken the vote (or it is too old to take).
      await Promise.race([claimed, new Promise((resolve) => setTimeout(resolve, PUSH_VOTE_TTL_MS))])
      if (proposal !== null) tappedVotes.delete(proposal)
    })(),
  )
})

/** Shows `href` in the app's open window when there is one, else in a new one. */
async function openPage(href: string): Promise<void> {
  const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const same = open.find((c) => new URL(c.url).origin === self.location.origin)
  const navigated = same ? await same.navigate(href).catch(() => null) : null
  if (navigated) {
    await navigated.focus().catch(() => undefined)
    return
  }
  await self.clients.openWindow(href)
}
