import { useEffect, useState } from 'react'

/** How long a section stays on screen before it counts as seen (ms). */
const SEEN_AFTER = 8_000

function read(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1'
  } catch {
    return false
  }
}

function remember(key: string) {
  try {
    localStorage.setItem(key, '1')
  } catch {
    // storage blocked: it opens in full on every visit
  }
}

/**
 * A section of the board that opens in full until it has been seen on this
 * device (on screen a few seconds, or folded by hand) and, from then on,
 * folds into a one-line strip so the board itself is in sight on load;
 * `openNow` opens it regardless (a link led there). Returns whether it is
 * open and the toggle.
 */
export function useFold(key: string, openNow = false): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => openNow || !read(key))
  useEffect(() => {
    const timer = setTimeout(() => remember(key), SEEN_AFTER)
    return () => clearTimeout(timer)
  }, [key])
  // A link leading here again opens it (state adjusted while rendering, not in an effect).
  const [wasOpenNow, setWasOpenNow] = useState(openNow)
  if (openNow !== wasOpenNow) {
    setWasOpenNow(openNow)
    if (openNow) setOpen(true)
  }
  const toggle = (value: boolean) => {
    if (!value) remember(key)
    setOpen(value)
  }
  return [open, toggle]
}
