import { useEffect, useId, useState } from 'react'
import { Link, NavLink, useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ROUTES } from '../routes'

/** Where the "Needs me" tab leads: the board's own "Needs me" section. */
const NEEDS_ME_HASH = '#needs-me'

/**
 * The phone's navigation: below 720 px the top bar's links give way
 * to a tab bar at the bottom of the screen — Needs me, Board, Speaking and
 * More (every other page, in a panel above the bar). Hidden by CSS on wider
 * screens, where the top bar's navigation shows everything.
 */
export function TabBar({ links, needsMe }: { links: { to: string; label: string }[]; needsMe: number }) {
  const { t } = useTranslation()
  const { pathname, hash } = useLocation()
  // Open on the page where it was opened: a page change closes it.
  const here = `${pathname}${hash}`
  const [openAt, setOpenAt] = useState<string | null>(null)
  const open = openAt === here
  const setOpen = (value: boolean) => setOpenAt(value ? here : null)
  const panelId = useId()
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpenAt(null)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  const onBoard = pathname === ROUTES.board
  const needsMeActive = onBoard && hash === NEEDS_ME_HASH
  const more = links.filter((l) => l.to !== ROUTES.board && l.to !== ROUTES.schedule)
  const moreActive = more.some((l) => pathname.startsWith(l.to))
  return (
    <nav className="tabbar" aria-label={t('nav.tabs')} data-testid="tabbar">
      {open && (
        <div id={panelId} className="tabbar-more">
          {more.map((l) => (
            <NavLink key={l.to} to={l.to} className={({ isActive }) => (isActive ? 'active' : undefined)}>
              {l.label}
            </NavLink>
          ))}
          <NavLink to={ROUTES.inbox}>{t('nav.inbox')}</NavLink>
          <NavLink to={ROUTES.profile}>{t('nav.profile')}</NavLink>
        </div>
      )}
      <ul>
        <li>
          <Link
            to={`${ROUTES.board}${NEEDS_ME_HASH}`}
            className={needsMeActive ? 'active' : undefined}
            aria-current={needsMeActive ? 'page' : undefined}
          >
            {/* Named by its text ("Needs me: 3"), so the name holds what is seen (axe label-content-name-mismatch). */}
            {t('nav.needsMe')}
            {needsMe > 0 && (
              <span className="tab-count">
                <span className="visually-hidden">: </span>
                {needsMe}
              </span>
            )}
          </Link>
        </li>
        <li>
          <Link
            to={ROUTES.board}
            className={onBoard && !needsMeActive ? 'active' : undefined}
            aria-current={onBoard && !needsMeActive ? 'page' : undefined}
          >
            {t('nav.board')}
          </Link>
        </li>
        <li>
          <NavLink to={ROUTES.schedule} className={({ isActive }) => (isActive ? 'active' : undefined)}>
            {t('nav.speaking')}
          </NavLink>
        </li>
        <li>
          <button
            type="button"
            className={moreActive ? 'active' : undefined}
            aria-expanded={open}
            aria-controls={open ? panelId : undefined}
            onClick={() => setOpen(!open)}
          >
            {t('nav.more')}
          </button>
        </li>
      </ul>
    </nav>
  )
}
