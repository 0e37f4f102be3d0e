import type { Page, Route } from '@playwright/test'

/** Which of the first-run list's steps are done (GET /stake/setup). */
export type SetupState = Record<'stake' | 'wards' | 'seats' | 'users' | 'proposal', boolean>

/**
 * Serves the first-run list's steps as `state` says wherever they come (the
 * shared database holds other specs' data): GET /stake/setup, and the
 * `setup` and `stake` parts of a sign-in's or a refresh's answer, the stake's
 * `settings_saved` following `state.stake`. Read at each request: change
 * `state`, then reload.
 */
export async function serveSetup(page: Page, state: SetupState): Promise<void> {
  const rewrite = (change: (body: Record<string, unknown>) => unknown) => async (route: Route) => {
    // A reload may drop a response still being rewritten: nothing to do then.
    await (async () => {
      const res = await route.fetch()
      // An answer that is not the data (a 403, a 401 the client refreshes and repeats) goes as it came.
      if (!res.ok()) return route.fulfill({ response: res })
      return route.fulfill({ response: res, json: change(await res.json()) })
    })().catch(() => undefined)
  }
  const stake = (body: unknown) => ({ ...(body as object), settings_saved: state.stake })
  await page.route(
    /\/api\/stake\/setup$/,
    rewrite(() => ({ ...state })),
  )
  await page.route(/\/api\/stake\/?$/, rewrite(stake))
  await page.route(
    /\/api\/auth\/(refresh|login)\?include=/,
    rewrite((body) => ({
      ...body,
      ...(body.setup ? { setup: { ...state } } : {}),
      ...(body.stake ? { stake: stake(body.stake) } : {}),
    })),
  )
}
