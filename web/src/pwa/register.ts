/**
 * Registers the service worker (src/sw.ts) once the page has loaded, from a
 * chunk of its own: the sign-in page's first download does not grow by the
 * registration code, and the worker's precaching does not compete with the
 * page's own requests. Production builds only (the dev server has no worker).
 */
export function registerServiceWorkerAfterLoad(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  const start = () => {
    void import('./worker').then(
      (m) => m.startServiceWorker(),
      () => {
        // The chunk could not load (offline on the very first visit): the next load tries again.
      },
    )
  }
  if (document.readyState === 'complete') start()
  else window.addEventListener('load', start, { once: true })
}
