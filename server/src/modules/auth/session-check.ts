import type { AppContext } from '../../context.ts'
import { addSeconds } from '../../clock.ts'
import { retrying } from '../../db/transaction.ts'
import { acrossStakes, setScope } from '../../db/stake-scope.ts'
import type { SessionCheck } from '../../plugins/auth.ts'
import { parsePermissionList } from '../users/permissions.repository.ts'
import { toUser } from '../users/users.repository.ts'
import { findSessionAccess, touchSharedSession } from './sessions.repository.ts'
import { ACTIVITY_WRITE_SECONDS, idleCutoff } from './shared-sessions.ts'

/**
 * The per-request session check the auth plugin is given by app.ts: one
 * indexed query (ARCHITECTURE.md, "Per-request auth"), null when the session
 * has ended or its user is inactive.
 */
export const sessionCheck =
  (ctx: Pick<AppContext, 'db' | 'dialect'>): SessionCheck =>
  async (sessionId, userId, now) => {
    const nowIso = now.toISOString()
    const cutoff = idleCutoff(now)
    // The session names the user, and the user his stake: found across stakes,
    // then everything else in this request runs in that stake alone.
    const row = await acrossStakes(() => findSessionAccess(ctx.db, ctx.dialect, sessionId, userId, nowIso, cutoff))
    if (!row) return null
    setScope({ stakeId: row.stake_id })
    // A shared-computer session's activity is its requests (docs/api-reference.md §13),
    // written at most once a minute; other sessions write nothing here.
    const staleBefore = addSeconds(now, -ACTIVITY_WRITE_SECONDS).toISOString()
    if (Boolean(row.shared) && row.last_used_at < staleBefore) {
      await retrying(() => touchSharedSession(ctx.db, sessionId, nowIso, staleBefore, cutoff))
    }
    return { user: toUser(row), permissions: parsePermissionList(row.permissions) }
  }
