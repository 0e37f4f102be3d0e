import { useEffect, useState } from 'react'
import type { FocusTarget } from './columns'

/**
 * Focus (and, for a card, scroll to) a card once it is on screen: its drag
 * handle, its menu, or the card itself. Tried again whenever `deps` change
 * (the board was fetched again, another tab was chosen).
 */
export function useFocusCard(...deps: unknown[]) {
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null)
  useEffect(() => {
    if (!focusTarget) return
    const frame = requestAnimationFrame(() => {
      const card = document.querySelector<HTMLElement>(
        `.board [data-stage="${focusTarget.stage}"] [data-card="${focusTarget.id}"]`,
      )
      if (!card) return
      const inner =
        focusTarget.on === 'handle'
          ? card.querySelector<HTMLElement>(`[data-drag-handle="${focusTarget.id}"]`)
          : focusTarget.on === 'menu'
            ? card.querySelector<HTMLElement>(`[data-move-trigger="${focusTarget.id}"]`)
            : null
      const target = inner ?? card
      target.focus()
      if (focusTarget.on === 'card') target.scrollIntoView({ block: 'center', behavior: 'smooth' })
      setFocusTarget(null)
    })
    return () => cancelAnimationFrame(frame)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusTarget, ...deps])
  return setFocusTarget
}
