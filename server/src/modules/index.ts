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
 * Every domain's routes and their prefix. app.ts mounts each one under /api
 * (canonical, documented) and again at the root (hidden aliases, docs/api-reference.md §1).
 */
export const MODULES: { prefix: string; routes: RoutesPlugin }[] = [
  { prefix: '', routes: opsRoutes },
  { prefix: '/auth', routes: authRoutes },
  { prefix: '/users', routes: usersRoutes },
  { prefix: '/callings', routes: callingsRoutes },
  { prefix: '/wards', routes: wardsRoutes },
  { prefix: '/speaking', routes: speakingRoutes },
  { prefix: '/calling-kanban', routes: proposalsRoutes },
  { prefix: '/calling-kanban', routes: sustainingTrackerRoutes },
  { prefix: '/sustainings', routes: sustainingsRoutes },
  { prefix: '/client-errors', routes: clientErrorsRoutes },
  { prefix: '/actions', routes: actionsRoutes },
  { prefix: '/webhooks', routes: webhooksRoutes },
  { prefix: '', routes: notificationsRoutes },
  { prefix: '/audit', routes: auditRoutes },
  { prefix: '/stake', routes: stakeRoutes },
  { prefix: '/stakes', routes: signupRoutes },
  { prefix: '/imports', routes: importsRoutes },
  { prefix: '/notifications/push', routes: pushRoutes },
  { prefix: '/appointments', routes: appointmentsRoutes },
  { prefix: '/sunday-plan', routes: sundayPlanRoutes },
  { prefix: '/auth', routes: accountsRoutes },
  { prefix: '/users', routes: inviteRoutes },
  { prefix: '/stewardships', routes: stewardshipsRoutes },
]

/** First path segments the API owns; web-client routes must avoid them. */
export const API_SEGMENTS = new Set([
  'api',
  'auth',
  'users',
  'callings',
  'speaking',
  'calling-kanban',
  'client-errors',
  'wards',
  'actions',
  'webhooks',
  'notifications',
  'outbox',
  'audit',
  'sustainings',
  'stake',
  'stakes',
  'health',
  'ready',
  'docs',
  'openapi.json',
  'imports',
  'appointments',
  'sunday-plan',
  'stewardships',
])
