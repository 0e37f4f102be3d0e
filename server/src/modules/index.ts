import { ROUTE_PREFIXES } from '@stake/contract/routes'
import type { AppContext } from '../context.ts'
import type { FastifyTypebox } from '../http.ts'
import actionsRoutes from './actions/actions.routes.ts'
import auditRoutes from './audit/audit.routes.ts'
import authRoutes from './auth/auth.routes.ts'
import callingsRoutes from './callings/callings.routes.ts'
import clientErrorsRoutes from './client-errors/client-errors.routes.ts'
import notificationsRoutes from './notifications/notifications.routes.ts'
import opsRoutes from './ops/ops.routes.ts'
import proposalsRoutes from './proposals/proposals.routes.ts'
import signupRoutes from './stakes/signup.routes.ts'
import speakingRoutes from './speaking/speaking.routes.ts'
import stakeRoutes from './stakes/stakes.routes.ts'
import sustainingsRoutes, { sustainingTrackerRoutes } from './sustainings/sustainings.routes.ts'
import usersRoutes from './users/users.routes.ts'
import wardsRoutes from './wards/wards.routes.ts'
import webhooksRoutes from './webhooks/webhooks.routes.ts'
import importsRoutes from './imports/imports.routes.ts'
import pushRoutes from './push/push.routes.ts'
import appointmentsRoutes from './appointments/appointments.routes.ts'
import sundayPlanRoutes from './appointments/sunday-plan.routes.ts'
import accountsRoutes from './accounts/accounts.routes.ts'
import inviteRoutes from './accounts/invite.routes.ts'
import stewardshipsRoutes from './stewardships/stewardships.routes.ts'

export type RoutesPlugin = (app: FastifyTypebox, ctx: AppContext) => Promise<void>

/**
 * Every domain's routes and their prefix (the contract's ROUTE_PREFIXES). app.ts mounts each
 * one under /api once; the root paths reach them through its URL rewrite (docs/api-reference.md §1).
 */
export const MODULES: { prefix: string; routes: RoutesPlugin }[] = [
  { prefix: ROUTE_PREFIXES.ops, routes: opsRoutes },
  { prefix: ROUTE_PREFIXES.auth, routes: authRoutes },
  { prefix: ROUTE_PREFIXES.users, routes: usersRoutes },
  { prefix: ROUTE_PREFIXES.callings, routes: callingsRoutes },
  { prefix: ROUTE_PREFIXES.wards, routes: wardsRoutes },
  { prefix: ROUTE_PREFIXES.speaking, routes: speakingRoutes },
  { prefix: ROUTE_PREFIXES.callingKanban, routes: proposalsRoutes },
  { prefix: ROUTE_PREFIXES.callingKanban, routes: sustainingTrackerRoutes },
  { prefix: ROUTE_PREFIXES.sustainings, routes: sustainingsRoutes },
  { prefix: ROUTE_PREFIXES.clientErrors, routes: clientErrorsRoutes },
  { prefix: ROUTE_PREFIXES.actions, routes: actionsRoutes },
  { prefix: ROUTE_PREFIXES.webhooks, routes: webhooksRoutes },
  { prefix: ROUTE_PREFIXES.notifications, routes: notificationsRoutes },
  { prefix: ROUTE_PREFIXES.audit, routes: auditRoutes },
  { prefix: ROUTE_PREFIXES.stake, routes: stakeRoutes },
  { prefix: ROUTE_PREFIXES.stakes, routes: signupRoutes },
  { prefix: ROUTE_PREFIXES.imports, routes: importsRoutes },
  { prefix: ROUTE_PREFIXES.push, routes: pushRoutes },
  { prefix: ROUTE_PREFIXES.appointments, routes: appointmentsRoutes },
  { prefix: ROUTE_PREFIXES.sundayPlan, routes: sundayPlanRoutes },
  { prefix: ROUTE_PREFIXES.auth, routes: accountsRoutes },
  { prefix: ROUTE_PREFIXES.users, routes: inviteRoutes },
  { prefix: ROUTE_PREFIXES.stewardships, routes: stewardshipsRoutes },
]
