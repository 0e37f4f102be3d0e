import { useSyncExternalStore } from 'react'
import { OPEN_STAGES, nextStage, prevStage, type OpenStage, type Proposal, type Stage } from '../../api/types'
import type { CardMove } from './ProposalCard'

/**
 * The board's columns: one per open stage, and the recently closed ones
 * together. An ordination's `ordain` shares the "Set apart" column: both are
 * the step after sustaining (docs/api-reference.md §18).
 */
export type Column = Exclude<OpenStage, 'ordain'> | 'done'
export const COLUMNS: Column[] = [
  ...OPEN_STAGES.filter((s): s is Exclude<OpenStage, 'ordain'> => s !== 'ordain'),
  'done',
]

export const columnOf = (stage: Stage): Column =>
  stage === 'done' || stage === 'declined' ? 'done' : stage === 'ordain' ? 'set_apart' : stage

/** Where focus goes once a card has moved: its handle (keyboard), its Move menu, or the card. */
export interface FocusTarget {
  id: number
  stage: Column
  on: 'handle' | 'menu' | 'card'
}

/** The moves a card may make: one step forward or back along its own path. */
export function movesOf(p: Proposal): CardMove[] {
  const moves: CardMove[] = []
  const next = nextStage(p.stage, p.kind)
  const prev = prevStage(p.stage, p.kind)
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
