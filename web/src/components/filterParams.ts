import { useSearchParams } from 'react-router'

/**
 * A list page's filters in the address (so a filtered list can be reloaded,
 * shared and gone back to): `update` sets or clears values, and any change
 * other than the page itself goes back to the first page; `clear` drops them all.
 */
export function useFilterParams() {
  const [params, setParams] = useSearchParams()
  // From the address as it is now (react-router hands an updater this render's
  // params, not the latest): a change made right after "Clear filters", before
  // the next render, must not bring the cleared filters back.
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(window.location.search)
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v)
      else next.delete(k)
    }
    if (!('page' in changes)) next.delete('page')
    setParams(next, { replace: true })
  }
  const clear = () => setParams(new URLSearchParams(), { replace: true })
  return [params, update, clear] as const
}
