import type { Approval, Stage } from '@stake/contract'
import type { Executor } from '../../db/types.ts'

export interface VoteKey {
  proposal_id: number
  stage: Stage
  approver_id: number
}

/**
 * Casts a first vote. The (proposal_id, stage, approver_id) unique
 * constraint keeps one vote per voter per stage: when a vote exists already
 * nothing is inserted and false comes back.
 */
export async function insertVoteIfNew(db: Executor, key: VoteKey, approved: boolean, now: string): Promise<boolean> {
  const row = await db
    .insertInto('proposal_votes')
    .values({ ...key, approved, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['proposal_id', 'stage', 'approver_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

export async function changeVote(db: Executor, key: VoteKey, approved: boolean, now: string): Promise<void> {
  await db
    .updateTable('proposal_votes')
    .set({ approved, updated_at: now })
    .where('proposal_id', '=', key.proposal_id)
    .where('stage', '=', key.stage)
    .where('approver_id', '=', key.approver_id)
    .execute()
}

/** Approvals and rejections at a stage, from every visit to it. */
export async function countVotes(db: Executor, proposalId: number, stage: Stage) {
  const rows = await db
    .selectFrom('proposal_votes')
    .select(['approved', (eb) => eb.fn.countAll<number>().as('n')])
    .where('proposal_id', '=', proposalId)
    .where('stage', '=', stage)
    .groupBy('approved')
    .execute()
  let approved = 0
  let rejected = 0
  for (const row of rows) {
    if (row.approved) approved += Number(row.n)
    else rejected += Number(row.n)
  }
  return { approved, rejected }
}

function votesWithVoters(db: Executor, proposalId: number) {
  return db
    .selectFrom('proposal_votes as v')
    .innerJoin('users as u', 'u.id', 'v.approver_id')
    .select([
      'v.id',
      'v.proposal_id',
      'v.stage',
      'v.approver_id',
      'v.approved',
      'v.created_at',
      'v.updated_at',
      'u.fname',
      'u.lname',
    ])
    .where('v.proposal_id', '=', proposalId)
}

type VoteRow = Awaited<ReturnType<ReturnType<typeof votesWithVoters>['executeTakeFirstOrThrow']>>

const toApproval = (row: VoteRow): Approval => ({
  id: row.id,
  proposal_id: row.proposal_id,
  approver_id: row.approver_id,
  approver: { id: row.approver_id, fname: row.fname, lname: row.lname },
  stage: row.stage,
  approved: Boolean(row.approved),
  created_at: row.created_at,
  updated_at: row.updated_at,
})

export async function findVote(db: Executor, key: VoteKey): Promise<Approval> {
  const row = await votesWithVoters(db, key.proposal_id)
    .where('v.stage', '=', key.stage)
    .where('v.approver_id', '=', key.approver_id)
    .executeTakeFirstOrThrow()
  return toApproval(row)
}

export async function listVotes(db: Executor, proposalId: number): Promise<Approval[]> {
  const rows = await votesWithVoters(db, proposalId).orderBy('v.id').execute()
  return rows.map(toApproval)
}
