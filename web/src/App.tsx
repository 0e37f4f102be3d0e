import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { Navigate, Route, Routes, useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useAuth } from './auth/AuthProvider'
import { can, canAdministerStake } from './auth/roles'
import type { Permission } from './api/types'
import { SignInPage } from './auth/SignInPage'
import { loadBoardPage, loadLayout } from './preload'
import { Loading } from './components/ui'
import { ROUTES } from './routes'
import { lazyPage } from './resilience/lazyPage'
import { loadChunk } from './resilience/chunks'
import { RouteBoundary } from './resilience/ErrorBoundary'

const LazyLayout = lazy(() => loadChunk(loadLayout).then((m) => ({ default: m.Layout })))
function Layout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<FullPageLoading />}>
      <LazyLayout>{children}</LazyLayout>
    </Suspense>
  )
}

/**
 * The screens past sign-in. Each is loaded on demand, when it is first
 * opened (no prefetch of pages the user may never visit on a slow phone
 * link), and retries its download and recovers from a deploy
 * (resilience/chunks.ts). `access`: who may open it — everyone (`public`),
 * any signed-in user (the default), only holders of a permission, or only
 * holders of every permission (`administrator`: the stake's settings).
 */
type Access = 'public' | 'administrator' | Permission

interface PageRoute {
  path: string
  load: () => Promise<{ default: ComponentType }>
  access?: Access
}

const loadPublicPage = () => import('./pages/public/PublicPage')

const PAGE_ROUTES: PageRoute[] = [
  // Only a user with a temporary password sees it: not part of the sign-in download.
  {
    path: ROUTES.changePassword,
    load: () => import('./auth/ChangePasswordPage').then((m) => ({ default: m.ChangePasswordPage })),
    access: 'public',
  },
  { path: ROUTES.public, load: loadPublicPage, access: 'public' },
  { path: ROUTES.stakePage(':slug'), load: loadPublicPage, access: 'public' },
  { path: ROUTES.createStake, load: () => import('./pages/stake/CreateStakePage'), access: 'public' },
  { path: ROUTES.board, load: loadBoardPage },
  { path: ROUTES.newProposal, load: () => import('./pages/proposals/NewProposalPage'), access: 'proposals.submit' },
  { path: ROUTES.proposal(':id'), load: () => import('./pages/proposals/ProposalPage') },
  { path: ROUTES.schedule, load: () => import('./pages/speaking/SpeakingPage') },
  { path: ROUTES.callings, load: () => import('./pages/callings/CallingsPage') },
  { path: ROUTES.calling(':id'), load: () => import('./pages/callings/CallingPage') },
  { path: ROUTES.users, load: () => import('./pages/users/UsersPage'), access: 'users.manage' },
  { path: ROUTES.wards, load: () => import('./pages/wards/WardsPage') },
  { path: ROUTES.webhooks, load: () => import('./pages/webhooks/WebhooksPage'), access: 'proposals.manage' },
  { path: ROUTES.stakeSettings, load: () => import('./pages/stake/StakeSettingsPage'), access: 'administrator' },
  { path: ROUTES.audit, load: () => import('./pages/audit/AuditPage'), access: 'users.manage' },
  { path: ROUTES.sustainings, load: () => import('./pages/sustainings/SustainingsPage') },
  { path: ROUTES.archive, load: () => import('./pages/sustainings/ArchivePage') },
  { path: ROUTES.profile, load: () => import('./pages/profile/ProfilePage') },
  { path: ROUTES.inbox, load: () => import('./pages/notifications/InboxPage') },
  { path: ROUTES.importLcr, load: () => import('./pages/imports/ImportPage'), access: 'users.manage' },
  { path: ROUTES.booking, load: () => import('./pages/booking/BookingPage'), access: 'public' },
  { path: ROUTES.sundayPlan, load: () => import('./pages/sundays/SundayPlanPage') },
  { path: ROUTES.interviews, load: () => import('./pages/interviews/InterviewsPage'), access: 'proposals.manage' },
  // Accounts (docs/api-reference.md §16)
  { path: ROUTES.welcome, load: () => import('./auth/WelcomePage'), access: 'public' },
  { path: ROUTES.forgotPassword, load: () => import('./auth/ForgotPasswordPage'), access: 'public' },
  { path: ROUTES.resetPassword, load: () => import('./auth/ResetPasswordPage'), access: 'public' },
]

const PAGES = PAGE_ROUTES.map(({ path, load, access }) => ({ path, access, Screen: lazyPage(load) }))

function FullPageLoading() {
  const { t } = useTranslation()
  return (
    <div className="boot">
      <Loading label={t('signingIn')} />
    </div>
  )
}

/** Signed-in users only; a forced password change blocks everything else. */
function RequireAuth({ children, access }: { children: ReactNode; access?: Exclude<Access, 'public'> }) {
  const { t } = useTranslation()
  const { status, me } = useAuth()
  const location = useLocation()
  if (status === 'loading') return <FullPageLoading />
  if (status === 'anonymous' || !me) {
    const next = location.pathname + location.search
    return <Navigate to={`${ROUTES.signIn}?next=${encodeURIComponent(next)}`} replace />
  }
  if (me.force_password_reset) return <Navigate to={ROUTES.changePassword} replace />
  const allowed = !access || (access === 'administrator' ? canAdministerStake(me) : can(me, access))
  if (!allowed) {
    return (
      <Layout>
        <div className="card">
          <h1>{t('page.notAvailable')}</h1>
          <p>{t('page.noAccess')}</p>
        </div>
      </Layout>
    )
  }
  return <Layout>{children}</Layout>
}

function Home() {
  const { status, me } = useAuth()
  if (status === 'loading') return <FullPageLoading />
  if (!me) return <Navigate to={ROUTES.public} replace />
  return <Navigate to={me.force_password_reset ? ROUTES.changePassword : ROUTES.board} replace />
}

/** A route's screen: its own error boundary, so the navigation around it stays usable. */
function Page({ children }: { children: ReactNode }) {
  return (
    <RouteBoundary>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </RouteBoundary>
  )
}

function NotFound() {
  const { t } = useTranslation()
  return (
    <div className="boot">
      <div className="card">
        <h1>{t('page.notFound')}</h1>
        <a href="/">{t('page.goStart')}</a>
      </div>
    </div>
  )
}

export function App() {
  const { status } = useAuth()
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route
        path={ROUTES.signIn}
        element={
          status === 'loading' ? (
            <FullPageLoading />
          ) : (
            <Page>
              <SignInPage />
            </Page>
          )
        }
      />
      {PAGES.map(({ path, access, Screen }) => {
        const screen = (
          <Page>
            <Screen />
          </Page>
        )
        return (
          <Route
            key={path}
            path={path}
            element={access === 'public' ? screen : <RequireAuth access={access}>{screen}</RequireAuth>}
          />
        )
      })}
      <Route path="*" element={<NotFound />} />
    </Routes>
  )
}
