import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react'
import { NavLink, useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useMe } from '../auth/AuthProvider'
import { can, isBishop } from '../auth/roles'
import { ROUTES } from '../routes'
import { useActions } from '../api/actions'
import { useStake } from '../api/stake'
import { setAppBadge } from '../api/push'
import { setTitleCount } from './docTitle'
import { AccountButton } from './AccountButton'
import { NotificationBell } from './NotificationBell'
import { MainNav } from './MainNav'
import { TabBar } from './TabBar'
import { loadAccountMenu } from '../preload'

// The account menu (and the menu library under it) loads with the first
// signed-in page, beside that page's own chunk: not in the sign-in download.
const AccountMenu = lazy(loadAccountMenu)

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
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

  const stakeName = useStake().data?.name
  const needsMe = useActions().data?.count ?? 0
  useEffect(() => {
    setTitleCount(needsMe)
    setAppBadge(needsMe)
    return () => {
      setTitleCount(0)
      setAppBadge(0)
    }
  }, [needsMe])

  const sustainings = can(me, 'proposals.view') || can(me, 'proposals.manage') || isBishop(me)
  // Most used first: on a narrow screen the last ones go to "More".
  const links: { to: string; label: string; show: boolean }[] = [
    { to: ROUTES.board, label: t('nav.board'), show: true },
    { to: ROUTES.schedule, label: t('nav.speaking'), show: true },
    { to: ROUTES.callings, label: t('nav.callings'), show: true },
    { to: ROUTES.sustainings, label: t('nav.sustainings'), show: sustainings },
    { to: ROUTES.sundayPlan, label: t('nav.sundayPlan'), show: true },
    { to: ROUTES.interviews, label: t('nav.interviews'), show: can(me, 'proposals.manage') },
    { to: ROUTES.wards, label: t('nav.wards'), show: true },
    { to: ROUTES.users, label: t('nav.users'), show: can(me, 'users.manage') },
    { to: ROUTES.archive, label: t('nav.archive'), show: sustainings },
    { to: ROUTES.audit, label: t('nav.audit'), show: can(me, 'users.manage') },
    { to: ROUTES.webhooks, label: t('nav.webhooks'), show: can(me, 'proposals.manage') },
  ]
  const shown = links.filter((l) => l.show)

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header className="topbar">
        <NavLink to={ROUTES.board} className="brand">
          <span>{t('appShort')}</span>
          {/* Under the app's name, cut short with an ellipsis (the whole name in the tooltip and the link's name). */}
          {stakeName && (
            <span className="stake-name" title={stakeName} data-testid="stake-name">
              {stakeName}
            </span>
          )}
        </NavLink>
        <MainNav links={shown} needsMe={needsMe} />
        <NotificationBell />
        <Suspense fallback={<AccountButton disabled />}>
          <AccountMenu />
        </Suspense>
      </header>
      <main id="main" className="content" tabIndex={-1} ref={mainRef}>
        {children}
      </main>
      <TabBar links={shown} needsMe={needsMe} />
    </div>
  )
}
