import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { QueryClient } from '@tanstack/react-query'
import { ApiError, sessionMayExist, startBootRefresh } from './api/client'
import { Root } from './Root'
import { watchConnection } from './resilience/connection'
import { headedToBoard, preloadFirstScreen } from './preload'
import { registerServiceWorkerAfterLoad } from './pwa/register'
import { i18next } from './i18n'
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

startBootRefresh(headedToBoard())
// A session to resume: the first screen's code and texts load beside the refresh, not after React's first render.
if (sessionMayExist()) preloadFirstScreen()
watchConnection()
registerServiceWorkerAfterLoad()

const container = document.getElementById('root')!
/**
 * The sign-in page comes rendered (web/scripts/prerender.mjs) as a visitor
 * without a session, in the language the server chose. The client takes it
 * over as it is only when it would render the same: no session hint on this
 * device and the same language. Otherwise (a session to resume, a language
 * chosen on this device that the browser does not ask for) it renders anew.
 */
const prerenderedLanguage = container.hasChildNodes() ? container.ownerDocument.documentElement.lang : null
const app = (status?: 'anonymous') => <Root queryClient={queryClient} router={BrowserRouter} initialStatus={status} />
if (prerenderedLanguage === i18next.language && !sessionMayExist()) hydrateRoot(container, app('anonymous'))
else {
  container.replaceChildren()
  createRoot(container).render(app())
}
