import { useMutation, useQuery } from '@tanstack/react-query'
import type * as C from '@stake/contract'
import { actionKeys } from './actions'
import { api } from './client'
import { callingKeys } from './callings'
import { useChange } from './mutation'
import { proposalKeys } from './proposals'
import { speakingKeys } from './speaking'
import { fetchStake, stakeKeys } from './stakeCache'
import type { TokenResponse } from './types'

export type Stake = C.Stake
export type StakeBody = C.StakeBody
export type StakeSignup = C.StakeSignup

/** The signed-in user's stake. It changes rarely (an administrator's save refetches it); `enabled` false waits. */
export function useStake(enabled = true) {
  return useQuery({ queryKey: stakeKeys.current(), queryFn: fetchStake, staleTime: 30 * 60_000, enabled })
}

const saveStake = (body: StakeBody) => api<Stake>('/stake', { method: 'PUT', body })

/**
 * PUT /stake (holders of all seven permissions). The approval counts and the
 * number of high-council seats show on the board (votes needed), in
 * `/actions`, on the High Councilor calling and as the rows of the speaking
 * grid, so those are refetched with the stake.
 */
export function useSaveStake() {
  return useChange({
    mutationFn: saveStake,
    invalidates: () => [stakeKeys.all, proposalKeys.all, actionKeys.all, callingKeys.all, speakingKeys.all],
  })
}

/**
 * POST /stakes: a new stake and its first administrator. Sent without a token
 * (the person has no account yet); the answer is a sign-in's, so the session
 * begins exactly as after the sign-in form: through `beginSession`, AuthProvider's,
 * which the caller hands in (the data layer imports no UI).
 */
const createStake = (body: StakeSignup) => api<TokenResponse>('/stakes', { method: 'POST', body, anonymous: true })

export function useCreateStake(beginSession: (tokens: TokenResponse) => Promise<void>) {
  return useMutation({
    mutationFn: async (body: StakeSignup) => {
      await beginSession(await createStake(body))
    },
  })
}
