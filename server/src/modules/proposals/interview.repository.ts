import type { Selectable } from 'kysely'
import type { Interview } from '@stake/contract'
import type { Executor } from '../../db/types.ts'
import type { ProposalInterviewsTable } from './proposals.tables.ts'

type InterviewRow = Selectable<ProposalInterviewsTable>

export const toInterview = (row: InterviewRow): Interview => ({
  id: row.id,
  proposal_id: row.proposal_id,
  interviewer_id: row.interviewer_id,
  scheduled_for: row.scheduled_for,
  interview_date: row.interview_date,
})

export function findInterview(db: Executor, proposalId: number) {
  return db.selectFrom('proposal_interviews').selectAll().where('proposal_id', '=', proposalId).executeTakeFirst()
}

/** Creates or replaces the proposal's one interview (UNIQUE proposal_id); a replaced one is not completed. */
export function upsertInterview(
  db: Executor,
  values: { proposal_id: number; interviewer_id: number; scheduled_for: string | null },
  now: string,
) {
  return db
    .insertInto('proposal_interviews')
    .values({ ...values, interview_date: null, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('proposal_id').doUpdateSet({
        interviewer_id: values.interviewer_id,
        scheduled_for: values.scheduled_for,
        interview_date: null,
        updated_at: now,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function completeInterview(db: Executor, proposalId: number, date: string, now: string) {
  return db
    .updateTable('proposal_interviews')
    .set({ interview_date: date, updated_at: now })
    .where('proposal_id', '=', proposalId)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteInterview(db: Executor, proposalId: number): Promise<void> {
  await db.deleteFrom('proposal_interviews').where('proposal_id', '=', proposalId).execute()
}

/** Back at `interview`: the interview is to be held (and completed) again. */
export async function reopenInterview(db: Executor, proposalId: number, now: string): Promise<void> {
  await db
    .updateTable('proposal_interviews')
    .set({ interview_date: null, updated_at: now })
    .where('proposal_id', '=', proposalId)
    .execute()
}

/** How long a proposal's interview lasts when nothing else says: the booking page's default. */
export const INTERVIEW_MINUTES = 30

/**
 * Whether the interviewer already has something at [start, end): a booked
 * appointment (other than this proposal's own booking) or another open
 * proposal's interview starting within a length of it.
 */
export async function interviewerBusy(
  db: Executor,
  interviewerId: number,
  proposalId: number,
  start: string,
  end: string,
): Promise<boolean> {
  const booked = await db
    .selectFrom('appointments as a')
    .innerJoin('appointment_offers as o', 'o.id', 'a.offer_id')
    .select('a.id')
    .where('a.interviewer_id', '=', interviewerId)
    .where('a.starts_at', '<', end)
    .where('a.ends_at', '>', start)
    .where((eb) => eb.or([eb('o.proposal_id', 'is', null), eb('o.proposal_id', '<>', proposalId)]))
    .executeTakeFirst()
  if (booked) return true
  const earliest = new Date(Date.parse(start) - INTERVIEW_MINUTES * 60_000).toISOString()
  const other = await db
    .selectFrom('proposal_interviews as i')
    .innerJoin('proposals as p', 'p.id', 'i.proposal_id')
    .select('i.id')
    .where('i.interviewer_id', '=', interviewerId)
    .where('i.proposal_id', '<>', proposalId)
    .where('i.interview_date', 'is', null)
    .where('p.stage', '=', 'interview')
    .where('i.scheduled_for', '>', earliest)
    .where('i.scheduled_for', '<', end)
    .executeTakeFirst()
  return other !== undefined
}
