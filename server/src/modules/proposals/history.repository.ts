import type { HistoryEntry, Stage } from '@stake/contract'
import type { Executor } from '../../db/types.ts'

export interface HistoryRecord {
  proposal_id: number
  from_stage: Stage | null
  to_stage: Stage
  by_user_id: number
  at: string
  note?: string | null
  on_date?: string | null
}

/** Every stage change writes one of these, in the transaction of the change (docs/api-reference.md §7). */
export async function insertHistory(db: Executor, record: HistoryRecord): Promise<void> {
  await db
    .insertInto('proposal_history')
    .values({ ...record, note: record.note ?? null, on_date: record.on_date ?? null })
    .execute()
}

/** The day the proposal's set apart step gave (the latest, when it was moved back and set apart again); null when none. */
export async function setApartDay(db: Executor, proposalId: number): Promise<string | null> {
  const row = await db
    .selectFrom('proposal_history')
    .select('on_date')
    .where('proposal_id', '=', proposalId)
    .where('from_stage', '=', 'set_apart')
    .where('on_date', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  return row?.on_date ?? null
}

export async function listHistory(db: Executor, proposalId: number): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('proposal_history as h')
    .innerJoin('users as u', 'u.id', 'h.by_user_id')
    .select([
      'h.id',
      'h.proposal_id',
      'h.from_stage',
      'h.to_stage',
      'h.by_user_id',
      'h.at',
      'h.note',
      'h.on_date',
      'u.fname',
      'u.lname',
    ])
    .where('h.proposal_id', '=', proposalId)
    .orderBy('h.id')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    proposal_id: r.proposal_id,
    from_stage: r.from_stage,
    to_stage: r.to_stage,
    by: r.by_user_id,
    by_user: { id: r.by_user_id, fname: r.fname, lname: r.lname },
    at: r.at,
    note: r.note,
    on_date: r.on_date,
  }))
}
