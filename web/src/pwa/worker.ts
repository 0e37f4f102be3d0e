/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register'
import { setUpdateWaiting } from './updates'

/** A tab left open for days still hears about a deploy: the browser is asked for sw.js this often. */
const UPDATE_CHECK_MS = 60 * 60 * 1000

export function startServiceWorker(): void {
  const updateSW = registerSW({
    immediate: true,
    // A new version is installed and waiting: offer "Reload" (UpdatePrompt), never reload by surprise.
    onNeedRefresh: () => setUpdateWaiting(() => void updateSW(true)),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return
      window.setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => {})
      }, UPDATE_CHECK_MS)
    },
  })
}
