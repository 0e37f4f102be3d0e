import type { AuditEntry, AuditListQuery } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { Actor } from '../../actor.ts'
import { parseRange, visibleEntry } from './audit.policy.ts'
import * as repo from './audit.repository.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'

/** Reading the audit log (docs/api-reference.md §13); writing is `audit()` in each change's transaction. */
export class AuditService {
  constructor(private readonly ctx: AppContext) {}

  async list(actor: Actor, query: AuditListQuery): Promise<{ rows: AuditEntry[]; total: number }> {
    // A date is a whole day in the stake's time zone: its settings are read only when one is given.
    const dated = query.from !== undefined || query.to !== undefined
    const { from, to } = parseRange(query, dated ? (await currentStakeSettings(this.ctx.db)).timezone : 'UTC')
    const filter = {
      actorId: query.actor_id,
      action: query.action,
      from,
      to,
      withoutPresidencyStage: !actor.permissions.has('proposals.manage'),
    }
    const page = await repo.listAudit(this.ctx.db, filter, query.limit ?? 50, query.offset ?? 0)
    return { rows: page.rows.map((row) => visibleEntry(repo.toAuditEntry(row), actor.permissions)), total: page.total }
  }
}
