import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query'
import { markSetupStale } from './stakeCache'

/** What a page may add to a domain mutation: its own notices and state, never keys. */
export type MutationCallbacks<R, V, Ctx = unknown> = Pick<
  UseMutationOptions<R, Error, V, Ctx>,
  'onSuccess' | 'onError' | 'onSettled'
>

/**
 * A mutation that names, once, the query keys it makes stale (key factories
 * of the api/<domain>.ts modules). They are refetched when it settles,
 * success or failure (a failure may mean someone else changed the row), and
 * `mutateAsync` resolves after the refetch, so a form that awaits it shows
 * fresh data when it closes. Every change also leaves the first-run steps
 * to be asked again (markSetupStale).
 */
export function useChange<R, V = void, Ctx = unknown>(
  options: UseMutationOptions<R, Error, V, Ctx> & { invalidates: (vars: V) => readonly QueryKey[] },
) {
  const qc = useQueryClient()
  const { invalidates, onSettled, ...rest } = options
  return useMutation<R, Error, V, Ctx>({
    ...rest,
    onSettled: async (...args) => {
      const [, , vars] = args
      const keys = invalidates(vars)
      // A first load still under way was asked before this change ended (the closed column opened by the
      // very drop that closes a card): an invalidation would join it and keep its stale answer, so it is
      // stopped and asked again.
      await Promise.all(
        keys.map((queryKey) =>
          qc.cancelQueries({
            queryKey,
            predicate: (q) => q.state.data === undefined && q.state.fetchStatus === 'fetching',
          }),
        ),
      )
      await Promise.all([
        ...keys.map((queryKey) => qc.invalidateQueries({ queryKey })),
        markSetupStale(qc),
        onSettled?.(...args),
      ])
    },
  })
}
