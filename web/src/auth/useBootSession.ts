import { useCallback, useEffect, useState, type RefObject } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import type { FirstScreen } from '../api/session'
import {
  ApiError,
  getIdleTimeout,
  refreshAccessToken,
  sessionMayExist,
  takeBootRefresh,
  takeFirstScreen,
} from '../api/client'
import { fetchMe, writeMe } from '../api/me'
import { prefetchActions, seedActions } from '../api/actions'
import { prefetchBoard, seedBoard } from '../api/board'
import { seedStake, seedStakeSetup } from '../api/stakeCache'
import { seedWards } from '../api/wardList'
import { useOnline } from '../resilience/connection'
import { headedToBoard } from '../preload'
import { i18next } from '../i18n'
import { adoptAccountLanguage } from './accountLanguage'

export type SessionStatus = 'loading' | 'anonymous' | 'authenticated'

/**
 * Puts the board, the queue, the wards, the stake and its first-run steps that a sign-in
 * or the page load's refresh carried in the cache. Whatever it did not carry
 * and the board needs is asked for now, together with the profile, not after
 * it. Resolves once the texts the carried screen needs beyond the board's are
 * in: the stake form of a first-run list whose first step is still to take,
 * which would otherwise appear a round trip after the cards and push them down.
 */
export function seedFirstScreen(queryClient: QueryClient, carried: FirstScreen): Promise<void> {
  if (carried.board) seedBoard(queryClient, carried.board, carried.board_etag)
  else if (headedToBoard()) prefetchBoard(queryClient)
  if (carried.actions) seedActions(queryClient, carried.actions)
  else if (headedToBoard()) prefetchActions(queryClient)
  if (carried.wards) seedWards(queryClient, carried.wards)
  if (carried.stake) seedStake(queryClient, carried.stake)
  if (carried.setup) seedStakeSetup(queryClient, carried.setup)
  if (!carried.setup || carried.setup.stake) return Promise.resolve()
  // A failure is harmless: the form's own load retries.
  return i18next.loadNamespaces('stake').catch(() => {})
}

/**
 * On page load a silent refresh, then the profile: the access token lives in
 * memory only, so a reload starts without one. A load that could not reach
 * the server is tried again by `retry`, or by itself once the connection is back.
 */
export function useBootSession(
  queryClient: QueryClient,
  statusRef: RefObject<SessionStatus>,
  setStatus: (status: SessionStatus) => void,
  setIdleTimeout: (seconds: number | null) => void,
) {
  const [bootError, setBootError] = useState<string | null>(null)
  const [bootAttempt, setBootAttempt] = useState(0)

  useEffect(() => {
    let cancelled = false
    ;(async () => {
      // No session on this browser: anonymous at once, without a refresh probe that can only fail.
      if (!sessionMayExist()) {
        setStatus('anonymous')
        return
      }
      try {
        // The first attempt takes the refresh main.tsx sent before the first render.
        const token = await (bootAttempt === 0 ? takeBootRefresh() : refreshAccessToken())
        if (cancelled) return
        if (!token) {
          setStatus('anonymous')
          return
        }
        // The page load's refresh carried the profile and, headed to the board, the board and the queue (main.tsx
        // asked for them, and started the first screen's code beside them): nothing more to wait for.
        const carried = takeFirstScreen()
        const texts = seedFirstScreen(queryClient, carried)
        const profile = carried.me ?? (await fetchMe())
        await texts
        if (cancelled) return
        adoptAccountLanguage(profile)
        writeMe(queryClient, profile)
        setIdleTimeout(getIdleTimeout())
        setBootError(null)
        setStatus('authenticated')
      } catch (err) {
        if (cancelled) return
        if (err instanceof ApiError && err.status === 0) {
          setBootError(err.message)
        }
        setStatus('anonymous')
      }
    })()
    return () => {
      cancelled = true
    }
  }, [bootAttempt, queryClient, setStatus, setIdleTimeout])

  const retry = useCallback(() => {
    setStatus('loading')
    setBootAttempt((n) => n + 1)
  }, [setStatus])

  // A page opened without a connection signs the user in by itself once it is back.
  const online = useOnline()
  useEffect(() => {
    if (online && bootError && statusRef.current === 'anonymous') retry()
  }, [online, bootError, statusRef, retry])

  const clearBootError = useCallback(() => setBootError(null), [])
  return { bootError, clearBootError, retry }
}
