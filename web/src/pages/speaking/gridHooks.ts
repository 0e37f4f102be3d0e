import { formatMonth } from '../../i18n/format'
import { useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

/** The twelve month names in the user's language (Intl, docs/api-reference.md §13). */
export function useMonthNames(): { short: string[]; long: string[] } {
  // Re-rendered on a language change (formatMonth reads the current language).
  useTranslation()
  const names = (style: 'short' | 'long') => Array.from({ length: 12 }, (_, i) => formatMonth(i + 1, style))
  return { short: names('short'), long: names('long') }
}

/**
 * On a narrow screen the grid scrolls sideways; it opens at the current
 * month (else a phone shows only January to March), once per year shown.
 */
export function useScrollToMonth(month: number | null, ready: boolean, year: number) {
  const scroller = useRef<HTMLDivElement>(null)
  const done = useRef<number | null>(null)
  useLayoutEffect(() => {
    const box = scroller.current
    if (!ready || !box || done.current === year) return
    done.current = year
    if (month == null || box.scrollWidth <= box.clientWidth) return
    const header = box.querySelector<HTMLElement>(`thead th[data-month="${month}"]`)
    const seat = box.querySelector<HTMLElement>('thead th.seat-col')
    if (header) box.scrollLeft = header.offsetLeft - (seat?.offsetWidth ?? 0)
  }, [month, ready, year])
  return scroller
}
