import { StrictMode, type ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { AuthProvider } from './auth/AuthProvider'
import type { SessionStatus } from './auth/useBootSession'
import { NoticeProvider } from './components/Notice'
import { App } from './App'
import { ErrorBoundary } from './resilience/ErrorBoundary'
import { OfflineBanner } from './resilience/OfflineBanner'
import { UpdateNotice } from './pwa/UpdateNotice'

/**
 * The whole client, below its router: one tree for the browser (main.tsx)
 * and for the sign-in page rendered at build time (entry-server.tsx), so the
 * HTML the server sends is exactly what the browser hydrates.
 */
export function Root({
  queryClient,
  router: Router,
  initialStatus,
}: {
  queryClient: QueryClient
  router: (props: { children: ReactNode }) => ReactNode
  initialStatus?: SessionStatus
}) {
  return (
    <StrictMode>
      <ErrorBoundary scope="app">
        <QueryClientProvider client={queryClient}>
          <Router>
            <NoticeProvider>
              <OfflineBanner />
              <UpdateNotice />
              <AuthProvider initialStatus={initialStatus}>
                <App />
              </AuthProvider>
            </NoticeProvider>
          </Router>
        </QueryClientProvider>
      </ErrorBoundary>
    </StrictMode>
  )
}
