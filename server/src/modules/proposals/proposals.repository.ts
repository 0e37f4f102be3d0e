import { sql, type ExpressionBuilder, type Selectable } from 'kysely'
import {
  CLOSED_STAGES,
  OPEN_STAGES,
  type Office,
  type ProposalKind,
  type Interview,
  type PersonRef,
  type Presentation,
  type Proposal,
  type ProposalScope,
  type Release,
  type Stage,
} from '@stake/contract'
import type { Dialect } from '../../db/database.ts'
import { dialectOf } from '../../db/dialect.ts'
import { containsPattern } from '../../db/like.ts'
import type { DB } from '../../db/schema.ts'
import type { Executor } from '../../db/types.ts'
import { holdersOf, seatsOf } from '../callings/seats.repository.ts'
import {
  PRESIDENCY_KEYS,
  ROLE_KEYS,
  rolesFromSeats,
  seesAll,
  STAKE_PRESENTED_STAGES,
  type Roles,
  type Viewer,
} from './proposals.policy.ts'
import type { ProposalsTable } from './proposals.tables.ts'

export type ProposalRow = Selectable<ProposalsTable>

// ---------------------------------------------------------------- roles

/** The seats that give a role in the tracker (one indexed query, read on every tracker request). */
export async function rolesOf(db: Executor, userId: number): Promise<Roles> {
  return rolesFromSeats(await seatsOf(db, [userId], ROLE_KEYS))
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

/** The columns of a proposal that its API shape shows. */
const SHOWN = [
  'p.id',
  'p.fname',
  'p.lname',
  'p.spouse_name',
  'p.proposed_calling',
  'p.ward_id',
  'p.submitter',
  'p.is_release',
  'p.kind',
  'p.office',
  'p.stage',
  'p.stage_changed_at',
  'p.submitted_at',
  'p.updated_at',
  'p.scope',
  'p.releases',
  'p.calling_id',
  'p.user_id',
] as const

type ProposalsExpr = ExpressionBuilder<DB & { p: ProposalsTable }, 'p'>

/**
 * Rows a viewer who does not see everything may see (docs/api-reference.md §7, S9): own
 * submissions, as bishop the ward's, with proposals.view those past the
 * presidency's stage, in a presidency seat those at it. The same rule as
 * `canSee` in proposals.policy.ts.
 */
function ownOrWard(viewer: Viewer) {
  return (eb: ProposalsExpr) => {
    const wards = viewer.roles.bishopWardIds
    const privacy = eb.fn.coalesce('p.declined_from', 'p.stage')
    return eb.or([
      eb('p.submitter', '=', viewer.id),
      ...(wards.length ? [eb('p.ward_id', 'in', wards)] : []),
      // docs/api-reference.md §12: every bishop presents a stake-scope proposal, so sees it from sustain on.
      ...(wards.length ? [eb.and([eb('p.scope', '=', 'stake'), eb(privacy, 'in', [...STAKE_PRESENTED_STAGES])])] : []),
      ...(viewer.permissions.has('proposals.view') ? [eb.not(atPresidencyStageSql(eb))] : []),
      ...(viewer.roles.presidency ? [atPresidencyStageSql(eb)] : []),
    ])
  }
}

/**
 * The presidency's stages (S9) in SQL, the twin of proposals.policy.ts
 * `atPresidencyStage`: at (or declined from) sp_approval, or an ordination at
 * (or declined from) its interview (docs/api-reference.md §18).
 */
function atPresidencyStageSql(eb: ProposalsExpr) {
  const privacy = eb.fn.coalesce('p.declined_from', 'p.stage')
  return eb.or([
    eb(privacy, '=', 'sp_approval'),
    eb.and([eb('p.kind', '=', 'ordination'), eb(privacy, '=', 'interview')]),
  ])
}

/** The day after a YYYY-MM-DD date, as YYYY-MM-DD. */
const nextDay = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + 24 * 3600 * 1000).toISOString().slice(0, 10)

/**
 * A proposal's presentations (docs/api-reference.md §12) as one JSON array per row, from a
 * correlated subquery on the (proposal_id, ward_id) key: lists and the board
 * keep their fixed number of queries. Order is fixed by the mapper. Raw SQL
 * is not seen by the stake-scope plugin, so the subquery names its stake
 * itself: the outer proposal's, which the plugin did scope.
 */
function presentedInJson(db: Executor) {
  return dialectOf(db) === 'postgres'
    ? sql<unknown>`(select coalesce(json_agg(json_build_object('ward_id', pp.ward_id, 'at', pp.at)), '[]'::json) from proposal_presentations pp where pp.stake_id = p.stake_id and pp.proposal_id = p.id)`
    : sql<unknown>`(select coalesce(json_group_array(json_object('ward_id', pp.ward_id, 'at', pp.at)), '[]') from proposal_presentations pp where pp.stake_id = p.stake_id and pp.proposal_id = p.id)`
}

/** The list filters of GET /proposals, for the CSV archive (same filters, docs/api-reference.md §12). */
export const archiveMatching = (filter: ProposalFilter) => matching(filter)

/** The list filters of GET /proposals. */
function matching(filter: ProposalFilter) {
  return (eb: ProposalsExpr) => {
    const conditions = []
    if (filter.stage !== undefined) conditions.push(eb('p.stage', '=', filter.stage))
    if (filter.ward_id !== undefined) conditions.push(eb('p.ward_id', '=', filter.ward_id))
    if (filter.is_release !== undefined) conditions.push(eb('p.is_release', '=', filter.is_release))
    if (filter.kind !== undefined) conditions.push(eb('p.kind', '=', filter.kind))
    const text = filter.q?.trim()
    if (text) conditions.push(eb('p.search_key', 'like', containsPattern(text)))
    const calling = filter.calling?.trim()
    if (calling)
      conditions.push(eb(eb.fn('lower', ['p.proposed_calling']), 'like', containsPattern(calling.toLowerCase())))
    // docs/api-reference.md §12 archive: dates on stage_changed_at, as UTC days (ISO text compares in order).
    if (filter.from !== undefined) conditions.push(eb('p.stage_changed_at', '>=', filter.from))
    if (filter.to !== undefined) conditions.push(eb('p.stage_changed_at', '<', nextDay(filter.to)))
    return eb.and(conditions)
  }
}

/**
 * A fixed set of stages, written into the statement as literals rather than
 * sent as parameters. PostgreSQL reuses one plan for a named statement
 * (db/pg-statements.ts); planned for parameters, `stage IN ($1…$7)` looks
 * like most of a stake's proposals, and among many stakes that plan read the
 * whole stake by its id instead of the open stages by proposals_stage_idx
 * (docs/performance.md, "Plans reused on PostgreSQL"). With the names in the
 * text the reused plan sees how few rows they are. Only the app's own stage
 * constants go here, never a caller's value.
 */
const stagesLiteral = (stages: readonly Stage[]) => sql<Stage>`(${sql.join(stages.map((s) => sql.lit(s)))})`

/**
 * The visibility rule (docs/api-reference.md §7, S9) as a condition on `proposals as p`,
 * for other modules that read proposals (the action queue): they follow any
 * change to the rule without code of their own.
 */
export function visibleTo(viewer: Viewer) {
  return (eb: ProposalsExpr) => (seesAll(viewer) ? eb.and([]) : ownOrWard(viewer)(eb))
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
    .select(SHOWN)
    .select((eb) => [
      'i.id as interview_id',
      'i.interviewer_id',
      'i.scheduled_for',
      'i.interview_date',
      presentedInJson(db).as('presented_in'),
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

/** A proposal row with its interview's columns (left-joined: null when none). */
type CardRow = Omit<ProposalRow, 'search_key' | 'declined_from'> & {
  interview_id: number | null
  interviewer_id: number | null
  scheduled_for: string | null
  interview_date: string | null
  /** JSON text on SQLite, parsed JSON on PostgreSQL (presentedInJson). */
  presented_in?: unknown
}

const fromJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value)

/** The stored releases column (JSON text). */
export const parseReleases = (value: string): Release[] => (fromJson(value) as Release[] | null) ?? []

/**
 * The releases (JSON text) with `since` filled from the roster: when the
 * released person took the seat (calling_slots.filled_at), for a release
 * linked to a calling and a user who holds it; absent otherwise. The client's
 * own `since`, if any, is never kept. One query whatever the number.
 */
export async function withSeatDates(db: Executor, releasesJson: string): Promise<string> {
  const releases = parseReleases(releasesJson)
  const linked = releases.filter((r) => r.calling_id != null && r.user_id != null)
  const seats = linked.length
    ? await db
        .selectFrom('calling_slots')
        .select(['calling_id', 'user_id', 'filled_at'])
        .where(
          'calling_id',
          'in',
          linked.map((r) => r.calling_id!),
        )
        .where(
          'user_id',
          'in',
          linked.map((r) => r.user_id!),
        )
        .execute()
    : []
  const since = (r: Release) =>
    seats
      .filter((s) => s.calling_id === r.calling_id && s.user_id === r.user_id && s.filled_at !== null)
      .map((s) => s.filled_at!)
      .sort()[0] ?? null
  return JSON.stringify(
    releases.map(({ since: _client, ...r }) => {
      const held = since(r)
      return held ? { ...r, since: held } : r
    }),
  )
}

/** presentedInJson's value, in ward order. */
const parsePresentedIn = (value: unknown): Presentation[] =>
  ((fromJson(value) as Presentation[] | null) ?? [])
    .map((p) => ({ ward_id: Number(p.ward_id), at: String(p.at) }))
    .sort((a, b) => a.ward_id - b.ward_id)

type ViewRow = CardRow & {
  approved_count: number | string | null
  rejected_count: number | string | null
  my_vote: unknown
}

interface VoteTally {
  approved: number
  rejected: number
  /** The caller's own vote at the current stage. */
  mine: boolean | null
}

/** The one mapper from a proposal row (and its votes at the current stage) to the API shape. */
function toProposal(row: CardRow, votes: VoteTally): Proposal {
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
    kind: row.kind,
    office: row.office ?? null,
    submitted_at: row.submitted_at,
    updated_at: row.updated_at,
    stage: row.stage,
    stage_changed_at: row.stage_changed_at,
    approvals: { approved: votes.approved, rejected: votes.rejected },
    my_vote: votes.mine,
    interview,
    scope: row.scope,
    releases: parseReleases(row.releases),
    calling_id: row.calling_id ?? null,
    user_id: row.user_id ?? null,
    presented_in: parsePresentedIn(row.presented_in ?? []),
  }
}

/** Rows of proposalViews(): the counts and my_vote come from its subqueries. */
const toView = (row: ViewRow): Proposal =>
  toProposal(row, {
    approved: Number(row.approved_count ?? 0),
    rejected: Number(row.rejected_count ?? 0),
    mine: row.my_vote === null || row.my_vote === undefined ? null : Boolean(row.my_vote),
  })

export async function findProposalView(db: Executor, viewer: Viewer, id: number): Promise<Proposal | undefined> {
  const row = await proposalViews(db, viewer).where('p.id', '=', id).executeTakeFirst()
  return row && toView(row as ViewRow)
}

/** Several proposals in their API shape, oldest submission first, those the viewer may see (one query). */
export async function findProposalViews(db: Executor, viewer: Viewer, ids: readonly number[]): Promise<Proposal[]> {
  if (ids.length === 0) return []
  const rows = await proposalViews(db, viewer)
    .where('p.id', 'in', [...ids])
    .orderBy('p.submitted_at')
    .orderBy('p.id')
    .execute()
  return (rows as ViewRow[]).map(toView)
}

export interface ProposalFilter {
  stage?: Stage
  ward_id?: number
  is_release?: boolean
  kind?: ProposalKind
  q?: string
  calling?: string
  from?: string
  to?: string
}

export async function listProposalViews(
  db: Executor,
  viewer: Viewer,
  filter: ProposalFilter,
  limit: number,
  offset: number,
) {
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
  return { rows: (rows as ViewRow[]).map(toView), total: Number(total.n) }
}

/**
 * GET /board's cards: open proposals and those closed since `closedSince`,
 * oldest change first, in one statement whatever their number (counts and
 * my_vote from proposalViews' subqueries, so one snapshot). Each branch of
 * the stage condition is a range of proposals_stage_idx (stage,
 * stage_changed_at): closed proposals older than the window are never read.
 */
export async function boardProposalViews(
  db: Executor,
  viewer: Viewer,
  closedSince: string,
  kind?: ProposalKind,
): Promise<Proposal[]> {
  const rows = await proposalViews(db, viewer)
    .$if(kind !== undefined, (q) => q.where('p.kind', '=', kind!))
    .where((eb) =>
      eb.or([
        eb('p.stage', 'in', stagesLiteral(OPEN_STAGES)),
        eb.and([eb('p.stage', 'in', stagesLiteral(CLOSED_STAGES)), eb('p.stage_changed_at', '>=', closedSince)]),
      ]),
    )
    .orderBy('p.stage_changed_at')
    .orderBy('p.id')
    .execute()
  return (rows as ViewRow[]).map(toView)
}

// ---------------------------------------------------------------- writes

export interface ProposalFields {
  fname: string
  lname: string
  spouse_name: string | null
  proposed_calling: string
  ward_id: number
  submitter: number
  scope: ProposalScope
  /** JSON text of the releases. */
  releases: string
  calling_id: number | null
  user_id: number | null
}

/** What `q` matches: "fname lname", "lname fname", the spouse name and the calling, lower-cased here (full Unicode, unlike SQLite's lower()). */
export const searchKeyOf = (f: Pick<ProposalFields, 'fname' | 'lname' | 'spouse_name' | 'proposed_calling'>): string =>
  [`${f.fname} ${f.lname}`, `${f.lname} ${f.fname}`, f.spouse_name ?? '', f.proposed_calling].join('\n').toLowerCase()

export function insertProposal(
  db: Executor,
  fields: ProposalFields & { is_release: boolean; kind: ProposalKind; office: Office | null; stage: Stage },
  now: string,
) {
  return db
    .insertInto('proposals')
    .values({ ...fields, search_key: searchKeyOf(fields), stage_changed_at: now, submitted_at: now, updated_at: now })
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
export async function updateProposalFields(
  db: Executor,
  id: number,
  fields: ProposalFields,
  now: string,
  submitterOnly: number | null,
) {
  let query = db
    .updateTable('proposals')
    .set({ ...fields, search_key: searchKeyOf(fields), updated_at: now })
    .where('id', '=', id)
  if (submitterOnly !== null) {
    query = query.where('submitter', '=', submitterOnly).where('stage', 'not in', [...CLOSED_STAGES])
  }
  const result = await query.executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** "Last updated" follows every change of the proposal, its interview included. */
export async function touchProposal(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('proposals').set({ updated_at: now }).where('id', '=', id).execute()
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
    .set({ stage: to, stage_changed_at: now, updated_at: now, declined_from: to === 'declined' ? from : null })
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

// ---------------------------------------------------------------- board: votes and voters

/**
 * The active holders of the voting seats (presidency and high council), in
 * one query: who votes at sp_approval and at hc_approval.
 */
export async function votingSeatHolders(db: Executor) {
  return holdersOf(db, [...PRESIDENCY_KEYS, 'high_councilor'])
    .select(['c.key', 'u.id', 'u.fname', 'u.lname'])
    .orderBy('u.lname')
    .orderBy('u.fname')
    .orderBy('u.id')
    .execute()
}

/**
 * The votes at their current stage of the visible proposals standing at a
 * voting stage, in one statement whatever their number (a vote from an
 * earlier visit to the stage still counts, as in the tally).
 */
export async function boardVotes(db: Executor, viewer: Viewer, kind?: ProposalKind) {
  const rows = await db
    .selectFrom('proposal_votes as v')
    .innerJoin('proposals as p', (join) => join.onRef('p.id', '=', 'v.proposal_id').onRef('p.stage', '=', 'v.stage'))
    .select(['v.proposal_id', 'v.approver_id', 'v.approved'])
    .where('p.stage', 'in', stagesLiteral(['sp_approval', 'hc_approval']))
    .$if(kind !== undefined, (q) => q.where('p.kind', '=', kind!))
    .where(visibleTo(viewer))
    .orderBy('v.proposal_id')
    .orderBy('v.approver_id')
    .execute()
  return rows.map((r) => ({ proposal_id: r.proposal_id, voter_id: r.approver_id, approved: Boolean(r.approved) }))
}

// ---------------------------------------------------------------- compact board (docs/api-reference.md §7)

/**
 * The board's open proposals, oldest change first, in one statement: the
 * proposal, its interview and presentations, but not proposalViews' three
 * vote subqueries per row — the compact board takes the tally and the
 * caller's vote from boardVotes, which it reads anyway. `approvals` and
 * `my_vote` are left empty here. The interviewers' names come with them,
 * each once, so that the board names them without the list of every user.
 */
export async function openBoardProposals(
  db: Executor,
  viewer: Viewer,
): Promise<{ cards: Proposal[]; interviewers: PersonRef[] }> {
  const rows = await db
    .selectFrom('proposals as p')
    .leftJoin('proposal_interviews as i', 'i.proposal_id', 'p.id')
    .leftJoin('users as iu', 'iu.id', 'i.interviewer_id')
    .select(SHOWN)
    .select([
      'i.id as interview_id',
      'i.interviewer_id',
      'i.scheduled_for',
      'i.interview_date',
      'iu.fname as interviewer_fname',
      'iu.lname as interviewer_lname',
      presentedInJson(db).as('presented_in'),
    ])
    .where('p.stage', 'in', stagesLiteral(OPEN_STAGES))
    .where(visibleTo(viewer))
    .orderBy('p.stage_changed_at')
    .orderBy('p.id')
    .execute()
  const interviewers = new Map<number, PersonRef>()
  const cards = rows.map(({ interviewer_fname: fname, interviewer_lname: lname, ...row }) => {
    if (row.interviewer_id !== null && fname !== null && lname !== null)
      interviewers.set(row.interviewer_id, { id: row.interviewer_id, fname, lname })
    return toProposal(row as CardRow, { approved: 0, rejected: 0, mine: null })
  })
  return { cards, interviewers: [...interviewers.values()] }
}

/** How many visible proposals were done / declined since `closedSince` (one statement on proposals_stage_idx). */
export async function closedCounts(db: Executor, viewer: Viewer, closedSince: string) {
  const rows = await db
    .selectFrom('proposals as p')
    .select((eb) => ['p.stage', eb.fn.countAll<number | string>().as('n')])
    .where('p.stage', 'in', stagesLiteral(CLOSED_STAGES))
    .where('p.stage_changed_at', '>=', closedSince)
    .where(visibleTo(viewer))
    .groupBy('p.stage')
    .execute()
  const counts = { done: 0, declined: 0 }
  for (const row of rows) if (row.stage === 'done' || row.stage === 'declined') counts[row.stage] = Number(row.n)
  return counts
}

/** A page of the visible proposals closed since `closedSince`, most recent first. */
export async function closedPageViews(
  db: Executor,
  viewer: Viewer,
  closedSince: string,
  limit: number,
  offset: number,
): Promise<Proposal[]> {
  const rows = await proposalViews(db, viewer)
    .where('p.stage', 'in', stagesLiteral(CLOSED_STAGES))
    .where('p.stage_changed_at', '>=', closedSince)
    .orderBy('p.stage_changed_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
  return (rows as ViewRow[]).map(toView)
}
