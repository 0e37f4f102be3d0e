import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely'
import type { Interview, Proposal, Stage } from '@stake/contract'
import type { Dialect } from '../../db/database.ts'
import { precompiled } from '../../db/precompiled.ts'
import type { DB } from '../../db/schema.ts'
import type { Executor } from '../../db/types.ts'
import { ROLE_KEYS, rolesFromSeats, seesAll, type Roles, type Viewer } from './proposals.policy.ts'
import type { ProposalsTable } from './proposals.tables.ts'

export type ProposalRow = Selectable<ProposalsTable>

// ---------------------------------------------------------------- roles

const seatsOf = precompiled(['userId'], (db, p) =>
  db
    .selectFrom('calling_slots as cs')
    .innerJoin('callings as c', 'c.id', 'cs.calling_id')
    .select(['c.key', 'cs.ward_id'])
    .where('cs.user_id', '=', p.userId as unknown as number)
    .where('c.key', 'in', [...ROLE_KEYS]),
)

/** The seats that give a role in the tracker (one indexed query, read on every tracker request). */
export async function rolesOf(db: Kysely<DB>, userId: number): Promise<Roles> {
  return rolesFromSeats(await seatsOf(db, { userId }))
}

// ---------------------------------------------------------------- reads

export function findProposal(db: Executor, id: number) {
  return db.selectFrom('proposals').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * The proposal row, locked until the transaction ends on PostgreSQL, so that
 * rules spanning rows (vote counting, the stage an interview is scheduled at)
 * see one state. SQLite runs one write transaction at a time anyway. NO KEY
 * UPDATE: it serialises the writers of the proposal without blocking inserts
 * of comments, which only take a key-share lock through their foreign key.
 */
export function lockProposal(db: Executor, id: number, dialect: Dialect) {
  let query = db.selectFrom('proposals').selectAll().where('id', '=', id)
  if (dialect === 'postgres') query = query.forNoKeyUpdate()
  return query.executeTakeFirst()
}

type ProposalScope = ExpressionBuilder<DB & { p: ProposalsTable }, 'p'>

/** Rows a viewer without stake-wide access may see: own submissions and, as bishop, the ward's (contract §7). */
function ownOrWard(viewer: Viewer) {
  return (eb: ProposalScope) => {
    const wards = viewer.roles.bishopWardIds
    return eb.or([eb('p.submitter', '=', viewer.id), ...(wards.length ? [eb('p.ward_id', 'in', wards)] : [])])
  }
}

/** The list filters of GET /proposals. */
function matching(filter: ProposalFilter) {
  return (eb: ProposalScope) => {
    const conditions = []
    if (filter.stage !== undefined) conditions.push(eb('p.stage', '=', filter.stage))
    if (filter.ward_id !== undefined) conditions.push(eb('p.ward_id', '=', filter.ward_id))
    if (filter.is_release !== undefined) conditions.push(eb('p.is_release', '=', filter.is_release))
    const text = filter.q?.trim().toLowerCase()
    if (text) {
      const pattern = sql<string>`${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`
      conditions.push(
        eb.or([
          eb(sql`lower(p.fname || ' ' || p.lname)`, 'like', pattern),
          eb(sql`lower(p.lname || ' ' || p.fname)`, 'like', pattern),
          eb(sql`lower(coalesce(p.spouse_name, ''))`, 'like', pattern),
          eb(sql`lower(p.proposed_calling)`, 'like', pattern),
        ]),
      )
    }
    return eb.and(conditions)
  }
}

/**
 * Proposals in their API shape, in one query however many rows: the vote
 * counts and the caller's own vote at the current stage come from correlated
 * subqueries on the (proposal_id, stage, approver_id) unique index, the
 * interview from a join.
 */
function proposalViews(db: Executor, viewer: Viewer) {
  return db
    .selectFrom('proposals as p')
    .leftJoin('proposal_interviews as i', 'i.proposal_id', 'p.id')
    .selectAll('p')
    .select((eb) => [
      'i.id as interview_id',
      'i.interviewer_id',
      'i.scheduled_for',
      'i.interview_date',
      eb
        .selectFrom('proposal_votes as v')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('v.proposal_id', '=', 'p.id')
        .whereRef('v.stage', '=', 'p.stage')
        .where('v.approved', '=', true)
        .as('approved_count'),
      eb
        .selectFrom('proposal_votes as v')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('v.proposal_id', '=', 'p.id')
        .whereRef('v.stage', '=', 'p.stage')
        .where('v.approved', '=', false)
        .as('rejected_count'),
      eb
        .selectFrom('proposal_votes as v')
        .select('v.approved')
        .whereRef('v.proposal_id', '=', 'p.id')
        .whereRef('v.stage', '=', 'p.stage')
        .where('v.approver_id', '=', viewer.id)
        .as('my_vote'),
    ])
    .$if(!seesAll(viewer), (q) => q.where(ownOrWard(viewer)))
}

type ViewRow = ProposalRow & {
  interview_id: number | null
  interviewer_id: number | null
  scheduled_for: string | null
  interview_date: string | null
  approved_count: number | string | null
  rejected_count: number | string | null
  my_vote: unknown
}

/** The one mapper from a proposal row to the API shape. */
export function toProposal(row: ViewRow): Proposal {
  const interview: Interview | null =
    row.interview_id === null || row.interviewer_id === null
      ? null
      : {
          id: row.interview_id,
          proposal_id: row.id,
          interviewer_id: row.interviewer_id,
          scheduled_for: row.scheduled_for,
          interview_date: row.interview_date,
        }
  return {
    id: row.id,
    fname: row.fname,
    lname: row.lname,
    spouse_name: row.spouse_name,
    proposed_calling: row.proposed_calling,
    ward_id: row.ward_id,
    submitter: row.submitter,
    is_release: Boolean(row.is_release),
    submitted_at: row.submitted_at,
    updated_at: row.updated_at,
    stage: row.stage,
    stage_changed_at: row.stage_changed_at,
    approvals: { approved: Number(row.approved_count ?? 0), rejected: Number(row.rejected_count ?? 0) },
    my_vote: row.my_vote === null || row.my_vote === undefined ? null : Boolean(row.my_vote),
    interview,
  }
}

export async function findProposalView(db: Executor, viewer: Viewer, id: number): Promise<Proposal | undefined> {
  const row = await proposalViews(db, viewer).where('p.id', '=', id).executeTakeFirst()
  return row && toProposal(row as ViewRow)
}

export interface ProposalFilter {
  stage?: Stage
  ward_id?: number
  is_release?: boolean
  q?: string
}

export async function listProposalViews(db: Executor, viewer: Viewer, filter: ProposalFilter, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    proposalViews(db, viewer)
      .where(matching(filter))
      .orderBy('p.submitted_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('proposals as p')
      .$if(!seesAll(viewer), (q) => q.where(ownOrWard(viewer)))
      .where(matching(filter))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: (rows as ViewRow[]).map(toProposal), total: Number(total.n) }
}

/**
 * Open proposals and those closed since `closedSince`, oldest change first,
 * in one statement whatever their number (and so one snapshot: a card's vote
 * counts always belong to the stage it shows). The votes are aggregated once
 * for the proposals at a voting stage rather than per row; the interview is
 * a join (one per proposal).
 */
export async function boardProposalViews(db: Executor, viewer: Viewer, closedSince: string): Promise<Proposal[]> {
  const votes = db
    .selectFrom('proposal_votes as v')
    .innerJoin('proposals as vp', (join) => join.onRef('vp.id', '=', 'v.proposal_id').onRef('vp.stage', '=', 'v.stage'))
    .where('vp.stage', 'in', ['sp_approval', 'hc_approval'])
    .groupBy('v.proposal_id')
    .select([
      'v.proposal_id',
      sql<number>`sum(case when v.approved then 1 else 0 end)`.as('approved_count'),
      sql<number>`sum(case when v.approved then 0 else 1 end)`.as('rejected_count'),
      // 2: the caller approved, 1: rejected, null: no vote of the caller's.
      sql<number | null>`max(case when v.approver_id = ${viewer.id} then (case when v.approved then 2 else 1 end) end)`.as('mine'),
    ])
  const rows = await db
    .selectFrom('proposals as p')
    .leftJoin('proposal_interviews as i', 'i.proposal_id', 'p.id')
    .leftJoin(votes.as('va'), 'va.proposal_id', 'p.id')
    .selectAll('p')
    .select([
      'i.id as interview_id',
      'i.interviewer_id',
      'i.scheduled_for',
      'i.interview_date',
      'va.approved_count',
      'va.rejected_count',
      'va.mine',
    ])
    .$if(!seesAll(viewer), (q) => q.where(ownOrWard(viewer)))
    .where((eb) => eb.or([eb('p.stage', 'not in', ['done', 'declined']), eb('p.stage_changed_at', '>=', closedSince)]))
    .orderBy('p.stage_changed_at')
    .orderBy('p.id')
    .execute()
  return rows.map((row) => toProposal({ ...row, my_vote: row.mine === null ? null : Number(row.mine) === 2 } as ViewRow))
}

const version = precompiled([], (db) => db.selectFrom('board_version').select('version').where('id', '=', 1))

/** The board's change counter (bumped by triggers, see migration 20261122000600_board_version). */
export async function boardVersion(db: Kysely<DB>): Promise<number> {
  const [row] = await version(db, {})
  return Number(row!.version)
}

// ---------------------------------------------------------------- writes

export interface ProposalFields {
  fname: string
  lname: string
  spouse_name: string | null
  proposed_calling: string
  ward_id: number
  submitter: number
}

export function insertProposal(db: Executor, fields: ProposalFields & { is_release: boolean; stage: Stage }, now: string) {
  return db
    .insertInto('proposals')
    .values({ ...fields, stage_changed_at: now, submitted_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/**
 * Updates the proposal's own fields, keeping its stage. With `submitterOnly`
 * (a caller who edits as the submitter, not as a manager) the write happens
 * only while that caller is still the submitter and the proposal is open:
 * an edit racing a decline or a reassignment loses instead of undoing it.
 * False when nothing was written.
 */
export async function updateProposalFields(db: Executor, id: number, fields: ProposalFields, now: string, submitterOnly: number | null) {
  let query = db.updateTable('proposals').set({ ...fields, updated_at: now }).where('id', '=', id)
  if (submitterOnly !== null) {
    query = query.where('submitter', '=', submitterOnly).where('stage', 'not in', ['done', 'declined'])
  }
  const result = await query.executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Deletes unless done; its comments, votes, interview and history go with it (ON DELETE CASCADE). */
export async function deleteProposalUnlessDone(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('proposals').where('id', '=', id).where('stage', '<>', 'done').executeTakeFirst()
  return result.numDeletedRows > 0n
}

/**
 * The one way a stage changes: a conditional UPDATE on the stage the caller
 * saw. Two moves of one card cannot both win: the second finds no row.
 */
export async function moveStage(db: Executor, id: number, from: Stage, to: Stage, now: string): Promise<boolean> {
  const result = await db
    .updateTable('proposals')
    .set({ stage: to, stage_changed_at: now })
    .where('id', '=', id)
    .where('stage', '=', from)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export function wardExists(db: Executor, wardId: number) {
  return db.selectFrom('wards').select('id').where('id', '=', wardId).executeTakeFirst()
}

export function userExists(db: Executor, userId: number) {
  return db.selectFrom('users').select(['id', 'active']).where('id', '=', userId).executeTakeFirst()
}
