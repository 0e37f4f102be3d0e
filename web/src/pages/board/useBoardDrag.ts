import { useMemo, useRef, useState } from 'react'
import {
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core'
import { OPEN_STAGES, type Board, type Proposal } from '../../api/types'
import { COLUMNS, columnOf, movesOf, type FocusTarget } from './columns'
import { columnJump, useAnnouncements } from './dnd'
import type { CardMove } from './ProposalCard'

/**
 * Dragging cards between columns, with the pointer or the keyboard: the
 * card lifted, the columns it may go to, what a screen reader hears, and the
 * move asked for on a drop.
 */
export function useBoardDrag(
  board: Board | undefined,
  requestMove: (p: Proposal, m: CardMove, via: FocusTarget['on'] | null) => void,
) {
  const [activeId, setActiveId] = useState<number | null>(null)
  const keyboardDrag = useRef(false)
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnJump }),
  )
  const allCards = useMemo(() => {
    const map = new Map<number, Proposal>()
    if (board) for (const s of OPEN_STAGES) for (const p of board.stages[s] ?? []) map.set(p.id, p)
    return map
  }, [board])
  const announcements = useAnnouncements(allCards)
  const activeCard = activeId != null ? allCards.get(activeId) : undefined
  const validTargets = useMemo(
    () =>
      new Set<string>(
        activeCard ? [columnOf(activeCard.stage), ...movesOf(activeCard).map((m) => columnOf(m.to))] : COLUMNS,
      ),
    [activeCard],
  )
  return {
    sensors,
    announcements,
    activeCard,
    /** During a drag: the column is no valid target (dimmed, drops refused). */
    refuses: (column: string) => activeCard != null && !validTargets.has(column),
    onDragStart(e: DragStartEvent) {
      setActiveId(Number(e.active.id))
      keyboardDrag.current = e.activatorEvent?.type.startsWith('key') ?? false
    },
    onDragEnd(e: DragEndEvent) {
      setActiveId(null)
      const p = allCards.get(Number(e.active.id))
      const to = e.over?.id as string | undefined
      if (!p || !to || to === columnOf(p.stage)) return
      const m = movesOf(p).find((x) => columnOf(x.to) === to)
      if (m) requestMove(p, m, keyboardDrag.current ? 'handle' : null)
    },
    onDragCancel: () => setActiveId(null),
  }
}
