import { useQuery, type QueryClient } from '@tanstack/react-query'
import type * as C from '@stake/contract'
import { setStakeZone } from '../i18n/format'
import { api } from './client'

/**
 * The caller's stake and its first-run steps in the query cache, apart from
 * the stake's changes (api/stake.ts): the sign-in and boot path puts what the
 * refresh carried here, and this module is all it pulls into that download.
 */

/** Query keys of the caller's stake (docs/api-reference.md §14). */
export const stakeKeys = {
  all: ['stake'] as const,
  current: () => [...stakeKeys.all, 'current'] as const,
  setup: () => [...stakeKeys.all, 'setup'] as const,
}

/** The stake's zone becomes the zone every date and time is shown in (i18n/format.ts). */
function adopt(stake: C.Stake): C.Stake {
  setStakeZone(stake.timezone)
  return stake
}

export const fetchStake = async () => adopt(await api<C.Stake>('/stake'))

/** Puts the stake that came with the page load's refresh (session.ts, `include=stake`) in the cache. */
export function seedStake(qc: QueryClient, stake: C.Stake): void {
  qc.setQueryData(stakeKeys.current(), adopt(stake))
}

/**
 * Which of the stake's first steps are done (GET /stake/setup): the board's
 * first-run list. Asked only by someone who may take the steps (`enabled`).
 */
export function useStakeSetup(enabled: boolean) {
  return useQuery({
    queryKey: stakeKeys.setup(),
    queryFn: () => api<C.StakeSetup>('/stake/setup'),
    enabled,
  })
}

/** Puts the steps that came with the page load's refresh (`include=setup`) in the cache. */
export function seedStakeSetup(qc: QueryClient, setup: C.StakeSetup): void {
  qc.setQueryData(stakeKeys.setup(), setup)
}

/**
 * Any change may tick a first step off or undo one (a ward's bishop, a seat,
 * an invitation, a proposal): the steps are asked again when the list next
 * shows, not at once.
 */
export function markSetupStale(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({ queryKey: stakeKeys.setup(), refetchType: 'none' })
}
