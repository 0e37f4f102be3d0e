import { canManage, type Viewer } from '../proposals/proposals.policy.ts'

/** Pure rules of sustainings (docs/api-reference.md §12); the services load the facts and ask these. */

/** GET /sustainings/{ward_id}: the ward's bishop, proposals.view or proposals.manage. */
export const canReadSustainings = (viewer: Viewer, wardId: number): boolean =>
  viewer.roles.bishopWardIds.includes(wardId) || viewer.permissions.has('proposals.view') || canManage(viewer)

/** POST …/presented: the ward's bishop or proposals.manage. */
export const canPresent = (viewer: Viewer, wardId: number): boolean =>
  viewer.roles.bishopWardIds.includes(wardId) || canManage(viewer)

/** A ward-scope proposal is presented in its own ward only (422 elsewhere). */
export const presentableIn = (proposal: { scope: string; ward_id: number }, wardId: number): boolean =>
  proposal.scope === 'stake' || proposal.ward_id === wardId

/**
 * Whether this presentation moves the proposal on: a ward-scope proposal at
 * once, a stake-scope one when no ward that exists now is left (docs/api-reference.md §12).
 */
export const completesSustaining = (scope: string, wardsLeft: number): boolean => scope !== 'stake' || wardsLeft === 0

/** YYYY-MM-DD that names a real calendar day (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const date = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/** Today's date in a time zone, YYYY-MM-DD. */
export const todayIn = (now: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
