import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react'
import { NavLink, useLocation } from 'react-router'
import { useMe } from '../auth/AuthProvider'
import { can } from '../auth/roles'
import { ROUTES } from '../routes'
import { useActions } from '../api/actions'
import { setTitleCount } from './docTitle'
import { AccountButton } from './AccountButton'

// The account menu (and the menu library under it) loads with the first
// signed-in page, beside that page's own chunk: not in the sign-in download.
const AccountMenu = lazy(() => import('./AccountMenu'))

export function Layout({ children }: { children: ReactNode }) {
  const me = useMe()
  const { pathname } = useLocation()
  const mainRef = useRef<HTMLElement>(null)
  const firstPath = useRef(pathname)
  // After a client-side page change, move focus to the content, as a full page load would.
  useEffect(() => {
    if (pathname !== firstPath.current) {
      firstPath.current = pathname
      mainRef.current?.focus({ preventScroll: true })
      window.scrollTo(0, 0)
    }
  }, [pathname])

  const needsMe = useActions().data?.count ?? 0
  useEffect(() => {
    setTitleCount(needsMe)
    return () => setTitleCount(0)
  }, [needsMe])

  const links: { to: string; label: string; show: boolean }[] = [
    { to: ROUTES.board, label: 'Board', show: true },
    { to: ROUTES.schedule, label: 'Speaking', show: true },
    { to: ROUTES.callings, label: 'Callings', show: true },
    { to: ROUTES.users, label: 'Users', show: can(me, 'users.manage') },
    { to: ROUTES.wards, label: 'Wards', show: true },
  ]

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to={ROUTES.board} className="brand">
          Stake Admin
        </NavLink>
        <nav aria-label="Main" className="mainnav">
          {links
            .filter((l) => l.show)
            .map((l) => (
              <NavLink key={l.to} to={l.to} className={({ isActive }) => (isActive ? 'active' : undefined)}>
                {l.label}
              </NavLink>
            ))}
          {needsMe > 0 && (
            <NavLink to={ROUTES.board} className="needs-me" aria-label={`Needs me: ${needsMe}`} data-testid="needs-me">
              Needs me <span className="needs-me-count">{needsMe}</span>
            </NavLink>
          )}
        </nav>
        <Suspense fallback={<AccountButton disabled />}>
          <AccountMenu />
        </Suspense>
      </header>
      <main id="main" className="content" tabIndex={-1} ref={mainRef}>
        {children}
      </main>
    </div>
  )
}
