import type { Executor } from '../../db/types.ts'

/**
 * Records a manual reminder at `at` unless the last one was after `since`:
 * one conditional upsert, so concurrent reminders cannot both pass. False
 * when refused.
 */
export async function claimManualReminder(db: Executor, proposalId: number, at: string, since: string) {
  const row = await db
    .insertInto('proposal_reminders')
    .values({ proposal_id: proposalId, last_manual_at: at })
    .onConflict((oc) =>
      oc
        .column('proposal_id')
        .doUpdateSet({ last_manual_at: at })
        .where('proposal_reminders.last_manual_at', '<=', since),
    )
    .returning('proposal_id')
    .executeTakeFirst()
  return row !== undefined
}

export async function lastManualReminder(db: Executor, proposalId: number): Promise<string | null> {
  const row = await db
    .selectFrom('proposal_reminders')
    .select('last_manual_at')
    .where('proposal_id', '=', proposalId)
    .executeTakeFirst()
  return row?.last_manual_at ?? null
}

/** Proposals at a voting stage since before `before` (candidates for automatic reminders), oldest first. */
export async function waitingProposals(db: Executor, before: string) {
  return db
    .selectFrom('proposals')
    .selectAll()
    .where('stage', 'in', ['sp_approval', 'hc_approval'])
    .where('stage_changed_at', '<=', before)
    .orderBy('stage_changed_at')
    .orderBy('id')
    .execute()
}

/**
 * Records the automatic reminders of `userIds` for this visit of the
 * proposal to its stage; returns those not reminded for it before (the
 * primary key decides, so two runs cannot both remind).
 */
export async function claimAutoReminders(
  db: Executor,
  proposalId: number,
  stageChangedAt: string,
  userIds: number[],
  at: string,
): Promise<number[]> {
  if (userIds.length === 0) return []
  const rows = await db
    .insertInto('auto_reminders')
    .values(
      userIds.map((user_id) => ({
        proposal_id: proposalId,
        user_id,
        stage_changed_at: stageChangedAt,
        created_at: at,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .execute()
  return rows.map((r) => r.user_id)
}

/** The newest notification of a proposal: what a reminder writes after it is read back by `remindedAfter`. */
export async function lastNotificationOf(db: Executor, proposalId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('proposal_id', '=', proposalId)
    .executeTakeFirst()
  return Number(row?.id ?? 0)
}

/**
 * The users a reminder of the proposal reached after notification `afterId`,
 * in the order written. Both kinds of reminder lock the proposal first, so
 * inside that transaction these are the reminder's own.
 */
export async function remindedAfter(db: Executor, proposalId: number, afterId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('user_id')
    .where('proposal_id', '=', proposalId)
    .where('kind', '=', 'reminder')
    .where('id', '>', afterId)
    .orderBy('id')
    .execute()
  return rows.map((r) => r.user_id)
}
