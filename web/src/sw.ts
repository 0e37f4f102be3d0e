/// <reference lib="webworker" />
import { cleanupOutdatedCaches, precacheAndRoute, PrecacheFallbackPlugin } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { NetworkOnly } from 'workbox-strategies'

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

/** First path segments the server owns (server/src/modules/index.ts API_SEGMENTS): never the app shell. */
const SERVER_PATHS =
  /^\/(api|auth|users|callings|speaking|calling-kanban|client-errors|wards|actions|notifications|outbox|audit|sustainings|webhooks|stake|stakes|imports|stewardships|appointments|sunday-plan|health|ready|docs|openapi\.json)(\/|$)/
/** A path naming a file (the .ics feed, a download) is never answered with the shell. */
const FILE_PATH = /\.[A-Za-z0-9]+$/

// Registered before the precache route, so a page load is never served cache-first.
registerRoute(
  new NavigationRoute(
    new NetworkOnly({ networkTimeoutSeconds: 4, plugins: [new PrecacheFallbackPlugin({ fallbackURL: 'index.html' })] }),
    { denylist: [SERVER_PATHS, FILE_PATH] },
  ),
)

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})

/** What a push carries (server/src/modules/push/push.repository.ts PushPayload). */
interface PushPayload {
  title?: string
  body?: string
  url?: string
  tag?: string
}

/**
 * Push notifications (issue 30): a push from the server shows a notification
 * with its text; tapping it opens (or focuses) the app on the proposal. The
 * payload is decrypted by the browser; nothing of it is kept here.
 */
self.addEventListener('push', (event) => {
  let data: PushPayload
  try {
    data = (event.data?.json() ?? {}) as PushPayload
  } catch {
    data = { body: event.data?.text() }
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/'
  event.waitUntil(
    self.registration.showNotification(data.title || 'Stake Administration', {
      body: data.body ?? '',
      tag: data.tag,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = new URL((event.notification.data as { url?: string } | null)?.url ?? '/', self.location.origin).href
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const same = open.find((c) => new URL(c.url).origin === self.location.origin)
      if (same) {
        await same.focus()
        if ('navigate' in same) await (same as WindowClient).navigate(url)
        return
      }
      await self.clients.openWindow(url)
    })(),
  )
})
