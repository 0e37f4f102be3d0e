import { lazy, Suspense, type ReactNode } from 'react'
import { Navigate, Route, Routes, useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useAuth } from './auth/AuthProvider'
import { can } from './auth/roles'
import type { Permission } from './api/types'
import { SignInPage } from './auth/SignInPage'
import { loadBoardPage, loadLayout } from './preload'
import { Loading } from './components/ui'
import { ROUTES } from './routes'
import { lazyPage } from './resilience/lazyPage'
import { loadChunk } from './resilience/chunks'
import { RouteBoundary } from './resilience/ErrorBoundary'

// Everything past sign-in is loaded on demand, each page when it is first
// opened (no prefetch of pages the user may never visit on a slow phone link).
const pages = {
  board: loadBoardPage,
  proposal: () => import('./pages/proposals/ProposalPage'),
  newProposal: () => import('./pages/proposals/NewProposalPage'),
  speaking: () => import('./pages/speaking/SpeakingPage'),
  callings: () => import('./pages/callings/CallingsPage'),
  calling: () => import('./pages/callings/CallingPage'),
  users: () => import('./pages/users/UsersPage'),
  wards: () => import('./pages/wards/WardsPage'),
  webhooks: () => import('./pages/webhooks/WebhooksPage'),
  profile: () => import('./pages/profile/ProfilePage'),
  public: () => import('./pages/public/PublicPage'),
  inbox: () => import('./pages/notifications/InboxPage'),
  audit: () => import('./pages/audit/AuditPage'),
  sustainings: () => import('./pages/sustainings/SustainingsPage'),
  archive: () => import('./pages/sustainings/ArchivePage'),
  // Only a user with a temporary password sees it: not part of the sign-in download.
  changePassword: () => import('./auth/ChangePasswordPage').then((m) => ({ default: m.ChangePasswordPage })),
}
const LazyLayout = lazy(() => loadChunk(loadLayout).then((m) => ({ default: m.Layout })))
function Layout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<FullPageLoading />}>
      <LazyLayout>{children}</LazyLayout>
    </Suspense>
  )
}
// Each retries its download and recovers from a deploy (resilience/chunks.ts).
const BoardPage = lazyPage(pages.board)
const ProposalPage = lazyPage(pages.proposal)
const NewProposalPage = lazyPage(pages.newProposal)
const SpeakingPage = lazyPage(pages.speaking)
const CallingsPage = lazyPage(pages.callings)
const CallingPage = lazyPage(pages.calling)
const UsersPage = lazyPage(pages.users)
const WardsPage = lazyPage(pages.wards)
const WebhooksPage = lazyPage(pages.webhooks)
const ProfilePage = lazyPage(pages.profile)
const PublicPage = lazyPage(pages.public)
const ChangePasswordPage = lazyPage(pages.changePassword)
const InboxPage = lazyPage(pages.inbox)
const AuditPage = lazyPage(pages.audit)
const SustainingsPage = lazyPage(pages.sustainings)
const ArchivePage = lazyPage(pages.archive)

function FullPageLoading() {
  const { t } = useTranslation()
  return (
    <div className="boot">
      <Loading label={t('signingIn')} />
    </div>
  )
}

/** Signed-in users only; a forced password change blocks everything else. */
function RequireAuth({ children, perm }: { children: ReactNode; perm?: Permission }) {
  const { t } = useTranslation()
  const { status, me } = useAuth()
  const location = useLocation()
  if (status === 'loading') return <FullPageLoading />
  if (status === 'anonymous' || !me) {
    const next = location.pathname + location.search
    return <Navigate to={`${ROUTES.signIn}?next=${encodeURIComponent(next)}`} replace />
  }
  if (me.force_password_reset) return <Navigate to={ROUTES.changePassword} replace />
  if (perm && !can(me, perm)) {
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
      <Route
        path={ROUTES.changePassword}
        element={
          <Page>
            <ChangePasswordPage />
          </Page>
        }
      />
      <Route
        path={ROUTES.public}
        element={
          <Page>
            <PublicPage />
          </Page>
        }
      />
      <Route
        path={ROUTES.board}
        element={
          <RequireAuth>
            <Page>
              <BoardPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.newProposal}
        element={
          <RequireAuth perm="proposals.submit">
            <Page>
              <NewProposalPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path="/proposals/:id"
        element={
          <RequireAuth>
            <Page>
              <ProposalPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.schedule}
        element={
          <RequireAuth>
            <Page>
              <SpeakingPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.callings}
        element={
          <RequireAuth>
            <Page>
              <CallingsPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path="/manage/callings/:id"
        element={
          <RequireAuth>
            <Page>
              <CallingPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.users}
        element={
          <RequireAuth perm="users.manage">
            <Page>
              <UsersPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.wards}
        element={
          <RequireAuth>
            <Page>
              <WardsPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.webhooks}
        element={
          <RequireAuth perm="proposals.manage">
            <Page>
              <WebhooksPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.audit}
        element={
          <RequireAuth perm="users.manage">
            <Page>
              <AuditPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.sustainings}
        element={
          <RequireAuth>
            <Page>
              <SustainingsPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.archive}
        element={
          <RequireAuth>
            <Page>
              <ArchivePage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.profile}
        element={
          <RequireAuth>
            <Page>
              <ProfilePage />
            </Page>
          </RequireAuth>
        }
      />
      <Route
        path={ROUTES.inbox}
        element={
          <RequireAuth>
            <Page>
              <InboxPage />
            </Page>
          </RequireAuth>
        }
      />
      <Route path="*" element={<NotFound />} />
    </Routes>
  )
}
