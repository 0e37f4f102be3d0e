import { useSearchParams } from 'react-router'

/**
 * A list page's filters in the address (so a filtered list can be reloaded,
 * shared and gone back to): `update` sets or clears values, and any change
 * other than the page itself goes back to the first page; `clear` drops them all.
 */
export function useFilterParams() {
  const [params, setParams] = useSearchParams()
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params)
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
