import { i18next } from './i18n'
import { ROUTES } from './routes'

/**
 * Code of the first signed-in screen, fetched ahead. The signed-in shell
 * (navigation, account menu) and every page are chunks of their own, outside
 * the sign-in download; AuthProvider calls preloadFirstScreen() as soon as a
 * session is likely (a sign-in submitted, a refresh that found a session), so
 * the shell and, when the user is headed there, the board arrive while the
 * sign-in and profile requests are still under way instead of after them.
 */
export const loadLayout = () => import('./components/Layout')
export const loadAccountMenu = () => import('./components/AccountMenu')
export const loadBoardPage = () => import('./pages/board/BoardPage')

/**
 * The texts the shell and the board render with (their `useTranslation`
 * namespaces: the bell, the board and its cards' presentation progress, the
 * stake's form in the first-run list while the stake's settings are unsaved).
 * Fetched with the code, not when the first component asks for them: each
 * would otherwise be a round trip of its own after the code has run (about
 * 170 ms each on a phone's 150 ms link, one after another). The stake's
 * form's (1 KB) is needed only in a new stake's first hour, but when it is,
 * the first screen waits for it (useBootSession): asked here, it is already
 * on its way when the refresh says so.
 */
const SHELL_TEXTS = ['notifications']
const BOARD_TEXTS = ['board', 'sustainings', 'stake']

/** A failed preload is harmless: the screen's own load retries (resilience/chunks.ts). */
const ignore = () => {}

/** Whether the first signed-in screen is the board (where the sign-in page sends the user, or the page reloaded). */
export function headedToBoard(): boolean {
  const { pathname, search } = window.location
  const target = pathname === ROUTES.signIn ? (new URLSearchParams(search).get('next') ?? ROUTES.board) : pathname
  return target === ROUTES.board || target === '/'
}

export function preloadFirstScreen(): void {
  const board = headedToBoard()
  loadLayout().catch(ignore)
  loadAccountMenu().catch(ignore)
  i18next.loadNamespaces(board ? [...SHELL_TEXTS, ...BOARD_TEXTS] : SHELL_TEXTS).catch(ignore)
  if (board) loadBoardPage().catch(ignore)
}

let preloadingForSignIn = false

/** The sign-in form's first input: the first screen's code and texts load while the person types. */
export function preloadWhileSigningIn(): void {
  if (preloadingForSignIn) return
  preloadingForSignIn = true
  preloadFirstScreen()
}
