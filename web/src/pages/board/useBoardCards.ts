import { useMemo } from 'react'
import type { BoardView, useClosedCards } from '../../api/proposals'
import type { OpenStage, Proposal } from '../../api/types'
import { COLUMNS, type Column } from './columns'

/**
 * The cards each column shows (filtered) and its count. Ordinations at
 * `ordain` share the "Set apart / Ordain" column (docs/decisions.md); the
 * closed column holds what closed here (a card just moved to done) first,
 * then its pages as loaded, and counts every closed one until filtered.
 */
export function useBoardCards(
  board: BoardView | undefined,
  closedPages: ReturnType<typeof useClosedCards>,
  filter: { matches(p: Proposal): boolean; filtered: boolean },
  closedShown: boolean,
) {
  const closedLoaded = useMemo(() => {
    const seen = new Set<number>()
    return [...(board?.closed_recently ?? []), ...(closedPages.data?.pages.flatMap((p) => p.items) ?? [])].filter(
      (p) => !seen.has(p.id) && seen.add(p.id),
    )
  }, [board, closedPages.data])
  const closed = closedLoaded.filter(filter.matches)
  const closedTotal = board ? board.closed.done + board.closed.declined : 0
  const cardsOf = (stage: OpenStage) =>
    [...(board?.stages[stage] ?? []), ...(stage === 'set_apart' ? (board?.stages.ordain ?? []) : [])].filter(
      filter.matches,
    )
  const counts = Object.fromEntries(
    COLUMNS.map((c) => [
      c,
      c === 'done' ? (filter.filtered && closedShown ? closed.length : closedTotal) : cardsOf(c).length,
    ]),
  ) as Record<Column, number>
  return { closed, closedTotal, cardsOf, counts }
}
