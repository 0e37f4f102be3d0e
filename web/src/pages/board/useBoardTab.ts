import { useState } from 'react'
import { useActions } from '../../api/actions'
import type { ActionItem, Board } from '../../api/types'
import { COLUMNS, columnOf, type Column } from './columns'

/** The first stage holding something for the caller ("Needs me"), else the first stage with a card, else the first. */
function firstTab(board: Board, items: ActionItem[]): Column {
  const mine = new Set(items.map((i) => columnOf(i.proposal.stage)))
  return (
    COLUMNS.find((c) => mine.has(c)) ??
    COLUMNS.find((c) => c !== 'done' && (board.stages[c]?.length ?? 0) > 0) ??
    COLUMNS[0]!
  )
}

/**
 * The phone's chosen stage tab, and whether the board may be shown: on a
 * phone, once its first tab is known. That one is picked once the board and
 * what awaits the caller have both arrived, and then it stays: what awaits
 * the caller is fetched again every minute and after each vote, and the tab
 * must not change under the caller's finger.
 */
export function useBoardTab(board: Board | undefined, phone: boolean): [Column, (column: Column) => void, boolean] {
  const [chosen, setChosen] = useState<Column | null>(null)
  const actions = useActions()
  // Without the queue (it failed to load), the board alone decides.
  const settled = board !== undefined && (actions.data !== undefined || actions.isError)
  if (chosen === null && settled) {
    // State adjusted while rendering, not in an effect: the first paint already shows it.
    const first = firstTab(board, actions.data?.items ?? [])
    setChosen(first)
    return [first, setChosen, true]
  }
  return [chosen ?? COLUMNS[0]!, setChosen, board !== undefined && (!phone || chosen !== null)]
}
