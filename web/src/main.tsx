import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ApiError, startBootRefresh } from './api/client'
import { AuthProvider } from './auth/AuthProvider'
import { NoticeProvider } from './components/Notice'
import { App } from './App'
import { ErrorBoundary } from './resilience/ErrorBoundary'
import { OfflineBanner } from './resilience/OfflineBanner'
import { watchConnection } from './resilience/connection'
import { registerServiceWorkerAfterLoad } from './pwa/register'
import { UpdateNotice } from './pwa/UpdateNotice'
import './i18n'
import './styles.css'

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: true,
      // 4xx answers are final; the client already refreshed and retried a 401.
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
})

startBootRefresh()
watchConnection()
registerServiceWorkerAfterLoad()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary scope="app">
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <NoticeProvider>
            <OfflineBanner />
            <UpdateNotice />
            <AuthProvider>
              <App />
            </AuthProvider>
          </NoticeProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
)
