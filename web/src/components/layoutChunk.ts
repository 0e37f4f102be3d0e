/**
 * The signed-in shell (navigation, account menu) is its own chunk, outside
 * the sign-in download. AuthProvider starts fetching it as soon as a session
 * is likely (a sign-in submitted, a refresh that found a session), so it is
 * there before the first signed-in page needs it.
 */
export const loadLayout = () => import('./Layout')
