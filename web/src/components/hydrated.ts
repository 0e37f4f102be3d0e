import { useSyncExternalStore } from 'react'

const never = () => () => {}

/**
 * A fact of this browser that does not change while the page is open
 * (`read`), and the value the page is rendered with at build time
 * (`whenBuilt`, see web/scripts/prerender.mjs). The page takes over its
 * built HTML with `whenBuilt`, then renders again with the browser's own
 * value: no hydration mismatch.
 */
export function useBrowserValue<T>(read: () => T, whenBuilt: T): T {
  return useSyncExternalStore(never, read, () => whenBuilt)
}

const yes = () => true

/**
 * False while the page is only its built HTML and while React takes it
 * over; true once the page's code runs it. What needs the code to work (a
 * submit button that must never send its form natively) waits for it.
 */
export function useHydrated(): boolean {
  return useBrowserValue(yes, false)
}
