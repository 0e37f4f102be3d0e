import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router'
import { QueryClient } from '@tanstack/react-query'
import { i18next, LANGUAGES, type Language } from './i18n'
import { ROUTES } from './routes'
import { Root } from './Root'

/**
 * The sign-in page rendered at build time (web/scripts/prerender.mjs), once
 * per language: the server sends it by the browser's language, so the form
 * paints from the HTML before any script has run, and main.tsx hydrates it.
 * Rendered as a visitor without a session, which is what the browser
 * hydrates when it holds no session hint (main.tsx).
 */
export const PRERENDERED = [{ name: 'signin', path: ROUTES.signIn }]

export { LANGUAGES }

export async function render(path: string, language: Language): Promise<{ html: string; title: string }> {
  await i18next.changeLanguage(language)
  const router = ({ children }: { children: ReactNode }) => <StaticRouter location={path}>{children}</StaticRouter>
  const html = renderToString(<Root queryClient={new QueryClient()} router={router} initialStatus="anonymous" />)
  // What useDocumentTitle sets once the page runs.
  return { html, title: `${i18next.t('signIn.title')} · ${i18next.t('appName')}` }
}
