import { useSyncExternalStore } from 'react'
import { OPEN_STAGES, nextStage, prevStage, type OpenStage, type Proposal, type Stage } from '../../api/types'
import type { CardMove } from './ProposalCard'

/** The board's columns: one per open stage, and the recently closed ones together. */
export type Column = OpenStage | 'done'
export const COLUMNS: Column[] = [...OPEN_STAGES, 'done']

export const columnOf = (stage: Stage): Column =>
  stage === 'done' || stage === 'declined' ? 'done' : (stage as OpenStage)

/** Where focus goes once a card has moved: its handle (keyboard), its Move menu, or the card. */
export interface FocusTarget {
  id: number
  stage: Column
  on: 'handle' | 'menu' | 'card'
}

/** The moves a card may make: one step forward or back along its own path. */
export function movesOf(p: Proposal): CardMove[] {
  const moves: CardMove[] = []
  const next = nextStage(p.stage, p.is_release)
  const prev = prevStage(p.stage, p.is_release)
  if (next) moves.push({ to: next, direction: 'advance' })
  if (prev) moves.push({ to: prev, direction: 'revert' })
  return moves
}

/** Phone width: the stages become tabs with counts instead of side-by-side columns. */
const PHONE_QUERY = '(max-width: 720px)'

export function usePhone(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(PHONE_QUERY)
      mq.addEventListener('change', onChange)
      return () => mq.removeEventListener('change', onChange)
    },
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  )
}
