import { useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { NavLink, useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
import * as Menu from '@radix-ui/react-dropdown-menu'
import { ROUTES } from '../routes'
import './nav.css'

export interface NavItem {
  to: string
  label: string
}

/** Room kept for the "More" button when some links do not fit (px). */
const MORE_ROOM = 96
/** The gap between links (px), as in the stylesheet. */
const GAP = 4

/** How many links (of these widths) fit the navigation, keeping room for "More" when not all do. */
function fitCount(nav: HTMLElement, widths: number[]): number {
  const fixed = [...nav.querySelectorAll<HTMLElement>('[data-nav-fixed]')].reduce((s, e) => s + e.offsetWidth + GAP, 0)
  const room = nav.clientWidth - fixed
  if (widths.reduce((s, w) => s + w + GAP, 0) <= room) return widths.length
  let used = MORE_ROOM
  let count = 0
  for (const w of widths) {
    if (used + w + GAP > room) break
    used += w + GAP
    count++
  }
  return count
}

/**
 * How many of the links fit the navigation's width, the rest going to "More".
 * Each link's width is measured once per set of labels (a language change
 * measures again, every link shown), then only the width available is followed
 * (and the room "Needs me" takes once it shows).
 */
function useFit(nav: RefObject<HTMLElement | null>, labels: string, withNeedsMe: boolean) {
  const [fit, setFit] = useState(Number.POSITIVE_INFINITY)
  const [measured, setMeasured] = useState(labels)
  if (measured !== labels) {
    setMeasured(labels)
    setFit(Number.POSITIVE_INFINITY)
  }
  const widths = useRef<number[]>([])
  useLayoutEffect(() => {
    const el = nav.current
    if (!el) return
    const items = [...el.querySelectorAll<HTMLElement>('[data-nav-item]')]
    // A link under "More" measures 0: the widths are those taken while every link showed.
    if (items.every((a) => !a.hidden)) widths.current = items.map((a) => a.offsetWidth)
    const refit = () => setFit(fitCount(el, widths.current))
    refit()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(refit)
    observer.observe(el)
    return () => observer.disconnect()
  }, [nav, measured, withNeedsMe])
  return fit
}

/**
 * The top bar's navigation (wider than a phone): the links that fit its width
 * in a row, the others in a "More" menu, so that no word is ever cut; "Needs
 * me" (with its count) always at the end.
 */
export function MainNav({ links, needsMe }: { links: NavItem[]; needsMe: number }) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const ref = useRef<HTMLElement>(null)
  const fit = useFit(ref, links.map((l) => l.label).join('|'), needsMe > 0)
  const rest = links.slice(fit)
  const restActive = rest.some((l) => pathname.startsWith(l.to))
  const cls = ({ isActive }: { isActive: boolean }) => (isActive ? 'active' : undefined)
  return (
    <nav aria-label={t('nav.label')} className="mainnav" ref={ref} data-testid="mainnav">
      {links.map((l, i) => (
        <NavLink key={l.to} to={l.to} className={cls} data-nav-item hidden={i >= fit}>
          {l.label}
        </NavLink>
      ))}
      {rest.length > 0 && (
        <Menu.Root>
          <Menu.Trigger className={`mainnav-more ${restActive ? 'active' : ''}`}>
            {t('nav.more')} <span aria-hidden="true">▾</span>
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content className="menu" align="end" sideOffset={4}>
              {rest.map((l) => (
                <Menu.Item key={l.to} asChild className="menu-item">
                  <NavLink to={l.to} className={({ isActive }) => `menu-item ${isActive ? 'active' : ''}`}>
                    {l.label}
                  </NavLink>
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      )}
      {needsMe > 0 && (
        <NavLink
          to={ROUTES.board}
          className="needs-me"
          aria-label={t('nav.needsMeLabel', { count: needsMe })}
          data-testid="needs-me"
          data-nav-fixed
        >
          {t('nav.needsMe')} <span className="needs-me-count">{needsMe}</span>
        </NavLink>
      )}
    </nav>
  )
}
