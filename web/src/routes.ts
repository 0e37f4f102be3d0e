/**
 * Client routes never start with an API path segment (docs/api-reference.md §1): the
 * server's SPA fallback must not shadow /auth, /users, /callings, /wards...
 */
export const ROUTES = {
  signIn: '/signin',
  changePassword: '/change-password',
  board: '/board',
  proposal: (id: number | string) => `/proposals/${id}`,
  newProposal: '/proposals/new',
  schedule: '/schedule',
  callings: '/manage/callings',
  calling: (id: number | string) => `/manage/callings/${id}`,
  users: '/manage/users',
  wards: '/manage/wards',
  audit: '/manage/audit',
  webhooks: '/manage/webhooks',
  stakeSettings: '/manage/stake',
  createStake: '/create-stake',
  profile: '/profile',
  inbox: '/inbox',
  sustainings: '/sustaining',
  archive: '/archive',
  public: '/public',
  /** A stake's public page by its address (docs/api-reference.md §14). */
  stakePage: (slug: string) => `/s/${slug}`,
  importLcr: '/manage/import',
  booking: '/booking',
  sundayPlan: '/sundays',
  interviews: '/interviews',
  // Accounts (docs/api-reference.md §16): pages reached from a mailed link or the sign-in page.
  welcome: '/welcome',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
}
