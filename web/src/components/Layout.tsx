import { useEffect, useRef, type ReactNode } from 'react'
import { NavLink, useLocation, useNavigate } from 'react-router'
import * as Menu from '@radix-ui/react-dropdown-menu'
import { useTranslation } from 'react-i18next'
import { useAuth, useMe } from '../auth/AuthProvider'
import { can, fullName } from '../auth/roles'
import { ROUTES } from '../routes'
import { useActions } from '../api/actions'
import { setTitleCount } from './docTitle'

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const me = useMe()
  const { logout } = useAuth()
  const navigate = useNavigate()
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
    { to: ROUTES.board, label: t('nav.board'), show: true },
    { to: ROUTES.schedule, label: t('nav.speaking'), show: true },
    { to: ROUTES.callings, label: t('nav.callings'), show: true },
    { to: ROUTES.users, label: t('nav.users'), show: can(me, 'users.manage') },
    { to: ROUTES.wards, label: t('nav.wards'), show: true },
    { to: ROUTES.webhooks, label: t('nav.webhooks'), show: can(me, 'proposals.manage') },
  ]

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header className="topbar">
        <NavLink to={ROUTES.board} className="brand">
          {t('appShort')}
        </NavLink>
        <nav aria-label={t('nav.label')} className="mainnav">
          {links
            .filter((l) => l.show)
            .map((l) => (
              <NavLink key={l.to} to={l.to} className={({ isActive }) => (isActive ? 'active' : undefined)}>
                {l.label}
              </NavLink>
            ))}
          {needsMe > 0 && (
            <NavLink
              to={ROUTES.board}
              className="needs-me"
              aria-label={t('nav.needsMeLabel', { count: needsMe })}
              data-testid="needs-me"
            >
              {t('nav.needsMe')} <span className="needs-me-count">{needsMe}</span>
            </NavLink>
          )}
        </nav>
        <Menu.Root>
          <Menu.Trigger className="user-button" aria-label={t('nav.accountMenu', { name: fullName(me) })}>
            <span className="avatar" aria-hidden="true">
              {(me.fname[0] ?? '') + (me.lname[0] ?? '')}
            </span>
            <span className="user-name">{fullName(me)}</span>
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content className="menu" align="end" sideOffset={6}>
              <Menu.Label className="menu-label">{me.email}</Menu.Label>
              <Menu.Item className="menu-item" onSelect={() => navigate(ROUTES.profile)}>
                {t('nav.profile')}
              </Menu.Item>
              <Menu.Separator className="menu-sep" />
              <Menu.Item
                className="menu-item"
                onSelect={() => {
                  void logout().then(() => navigate(ROUTES.signIn, { replace: true }))
                }}
              >
                {t('signOut')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      </header>
      <main id="main" className="content" tabIndex={-1} ref={mainRef}>
        {children}
      </main>
    </div>
  )
}
