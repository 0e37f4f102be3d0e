import type { KeyboardEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useDraggable, type Announcements, type KeyboardCoordinateGetter, type UniqueIdentifier } from '@dnd-kit/core'
import type { Proposal } from '../../api/types'
import { columnOf } from './columns'

/**
 * Left/right arrows jump a lifted card to the centre of the nearest enabled
 * column that way; the columns a card may not go to are disabled drop targets.
 */
export const columnJump: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const { collisionRect, droppableRects, droppableContainers } = context
  if (!collisionRect || (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft')) return undefined
  event.preventDefault()
  const cx = collisionRect.left + collisionRect.width / 2
  const rects = droppableContainers
    .getEnabled()
    .map((c) => droppableRects.get(c.id))
    .filter((r) => r != null)
    .sort((a, b) => a.left - b.left)
  const target =
    event.code === 'ArrowRight' ? rects.find((r) => r.left > cx) : [...rects].reverse().find((r) => r.right < cx)
  if (!target) return currentCoordinates
  return { x: currentCoordinates.x + (target.left + target.width / 2 - cx), y: currentCoordinates.y }
}

/**
 * A card that can be dragged with the pointer from anywhere on it, and lifted
 * with the keyboard from its handle: a real button, so the card itself is not
 * an interactive element wrapped around links and buttons.
 */
export function DraggableCard({
  id,
  name,
  disabled,
  children,
}: {
  id: number
  name: string
  disabled: boolean
  children(handle: ReactNode): ReactNode
}) {
  const { t } = useTranslation('board')
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({ id, disabled })
  const { onKeyDown, onPointerDown } = (listeners ?? {}) as Record<string, (e: unknown) => void>
  const handle = disabled ? null : (
    <button
      type="button"
      ref={setActivatorNodeRef}
      className="drag-handle"
      {...attributes}
      aria-roledescription={t('dnd.roleDescription')}
      onKeyDown={(e: KeyboardEvent<HTMLButtonElement>) => onKeyDown?.(e)}
      data-drag-handle={id}
    >
      <span aria-hidden="true">⠿</span>
      <span className="visually-hidden">{t('dnd.handle', { name })}</span>
    </button>
  )
  return (
    <div
      ref={setNodeRef}
      onPointerDown={disabled ? undefined : onPointerDown}
      className={`drag-wrap ${isDragging ? 'is-dragging' : ''} ${disabled ? '' : 'can-drag'}`}
    >
      {children(handle)}
    </div>
  )
}

/** What a screen reader hears while a card is lifted, moved over columns and dropped. */
export function useAnnouncements(cards: Map<number, Proposal>): Announcements {
  const { t } = useTranslation('board')
  const cardName = (id: UniqueIdentifier) => {
    const p = cards.get(Number(id))
    return p ? `${p.fname} ${p.lname}` : ''
  }
  const columnName = (id: UniqueIdentifier | undefined) => (id ? t(`columns.${String(id)}`) : '')
  return {
    onDragStart: ({ active }) => t('dnd.start', { name: cardName(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('dnd.over', { name: cardName(active.id), stage: columnName(over.id) })
        : t('dnd.notOver', { name: cardName(active.id) }),
    onDragEnd: ({ active, over }) => {
      const p = cards.get(Number(active.id))
      if (!over || !p || over.id === columnOf(p.stage)) return t('dnd.stayed', { name: cardName(active.id) })
      return t('dnd.dropped', { name: cardName(active.id), stage: columnName(over.id) })
    },
    onDragCancel: ({ active }) => t('dnd.cancelled', { name: cardName(active.id) }),
  }
}
