import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { OPEN_STAGES, type Proposal, type ProposalBody, type Stage } from '@stake/contract'
import type { DB } from '../db/schema.ts'
import type { TestApp } from './harness.ts'
import { seat, signedIn, unique } from './factories.ts'

/**
 * Test (and benchmark) data for the proposal tracker. Wards are inserted
 * directly: the wards module owns their HTTP API.
 */

/** A ward and its (empty) Bishop slot: calling `bishop`, slot_id = ward_id = the ward's id. */
export async function createWard(db: Kysely<DB>, name = unique('Ward ')): Promise<number> {
  const now = new Date().toISOString()
  const { id } = await db
    .insertInto('wards')
    .values({ name, name_key: name.toLowerCase(), start_time: 600, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  const bishop = await db.selectFrom('callings').select('id').where('key', '=', 'bishop').executeTakeFirstOrThrow()
  await db.insertInto('calling_slots').values({ calling_id: bishop.id, slot_id: id, ward_id: id }).execute()
  return id
}

type Role = 'stake_president' | 'stake_first_counselor' | 'stake_second_counselor' | 'high_councilor' | 'stake_clerk'

/** A signed-in user seated in a system calling (their grants come from the seat). */
export async function seated(t: TestApp, key: Role) {
  const user = await signedIn(t)
  await seat(t, key, user.user.id)
  return user
}

/** A signed-in bishop of the ward. */
export async function bishopOf(t: TestApp, wardId: number) {
  const user = await signedIn(t)
  await seat(t, 'bishop', user.user.id, wardId)
  return user
}

/** A signed-in bishop of a new ward (another ward than the test's). */
export const bishopOfNewWard = async (t: TestApp) => bishopOf(t, await createWard(t.database.db))

/** The stake presidency: the three seats that vote at sp_approval. */
export async function presidency(t: TestApp) {
  return {
    president: await seated(t, 'stake_president'),
    first: await seated(t, 'stake_first_counselor'),
    second: await seated(t, 'stake_second_counselor'),
  }
}

export async function highCouncilors(t: TestApp, n: number) {
  const list = []
  for (let i = 0; i < n; i++) list.push(await seated(t, 'high_councilor'))
  return list
}

type User = Awaited<ReturnType<typeof signedIn>>

/** The people of most tracker tests: a ward, its bishop, a stake clerk, the presidency and some high councilors. */
export interface Tracker {
  ward: number
  bishop: User
  /** proposals.manage (and every other grant) through the seat; no vote. */
  clerk: User
  sp: Awaited<ReturnType<typeof presidency>>
  hcs: User[]
}

/** Creates a {@link Tracker}: a fresh ward with its bishop, a clerk, the presidency and `councilors` high councilors. */
export async function tracker(t: TestApp, councilors = 3): Promise<Tracker> {
  const ward = await createWard(t.database.db)
  const bishop = await bishopOf(t, ward)
  const clerk = await seated(t, 'stake_clerk')
  const sp = await presidency(t)
  return { ward, bishop, clerk, sp, hcs: await highCouncilors(t, councilors) }
}

export const proposalBody = (wardId: number, overrides: Partial<ProposalBody> = {}): ProposalBody => ({
  fname: unique('Fn'),
  lname: unique('Ln'),
  spouse_name: 'Pat',
  proposed_calling: 'Primary teacher',
  ward_id: wardId,
  ...overrides,
})

type As = Awaited<ReturnType<typeof signedIn>>['as']

/** Submits through HTTP and insists on 201. */
export async function submit(as: As, wardId: number, overrides: Partial<ProposalBody> = {}): Promise<Proposal> {
  const res = await as('POST', '/api/calling-kanban/proposals', proposalBody(wardId, overrides))
  assert.equal(res.statusCode, 201, res.body)
  return res.json()
}

/** Moves a proposal through HTTP (a manager's advance/revert) and insists on 200. */
export async function move(as: As, id: number, direction: 'advance' | 'revert', from: Stage): Promise<Proposal> {
  const res = await as('POST', `/api/calling-kanban/proposals/${id}/${direction}?from_stage=${from}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

export const getProposal = async (as: As, id: number): Promise<Proposal> => {
  const res = await as('GET', `/api/calling-kanban/proposals/${id}`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

/** The open stages of a call's path (seeded proposals are calls: `ordain` is an ordination's). */
const CALL_STAGES = OPEN_STAGES.filter((s) => s !== 'ordain')

/**
 * Inserts `n` proposals spread over the open stages of a call, each with its history
 * row and some votes, straight into the database (for the board's
 * query-count test and the benchmark). Creates a ward and a submitter unless
 * given. Returns the ward and submitter ids.
 */
export async function seedProposals(
  db: Kysely<DB>,
  n: number,
  options: { wardId?: number; submitter?: number; voter?: number; now?: Date } = {},
): Promise<{ wardId: number; submitter: number }> {
  const now = (options.now ?? new Date()).toISOString()
  const wardId = options.wardId ?? (await createWard(db))
  const email = `${unique('seed')}@example.org`
  const submitter =
    options.submitter ??
    (
      await db
        .insertInto('users')
        .values({
          email,
          email_key: email,
          fname: 'Seed',
          lname: 'Submitter',
          password_hash: crypto.randomBytes(16).toString('hex'),
          active: true,
          force_password_reset: false,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  const voter = options.voter ?? submitter
  const CHUNK = 250
  for (let start = 0; start < n; start += CHUNK) {
    const size = Math.min(CHUNK, n - start)
    const rows = Array.from({ length: size }, (_, k) => {
      const i = start + k
      const stage = CALL_STAGES[i % CALL_STAGES.length]!
      return {
        fname: `Seed${i}`,
        lname: `Person${i}`,
        spouse_name: i % 3 === 0 ? null : `Spouse${i}`,
        proposed_calling: `Calling ${i % 40}`,
        ward_id: wardId,
        submitter,
        is_release: false,
        stage,
        stage_changed_at: now,
        submitted_at: now,
        updated_at: now,
      }
    })
    const ids = await db.insertInto('proposals').values(rows).returning(['id', 'stage']).execute()
    await db
      .insertInto('proposal_history')
      .values(
        ids.map((r) => ({
          proposal_id: r.id,
          from_stage: null,
          to_stage: r.stage,
          by_user_id: submitter,
          at: now,
          note: null,
        })),
      )
      .execute()
    const voting = ids.filter((r) => r.stage === 'sp_approval' || r.stage === 'hc_approval')
    if (voting.length > 0) {
      await db
        .insertInto('proposal_votes')
        .values(
          voting.map((r) => ({
            proposal_id: r.id,
            stage: r.stage,
            approver_id: voter,
            approved: true,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute()
    }
  }
  return { wardId, submitter }
}

/**
 * PostgreSQL: waits until some other statement of this database is blocked
 * on a lock (a request that reached its UPDATE while a test transaction
 * holds the row), for race tests that must interleave deterministically.
 */
export async function waitForLockWait(db: Kysely<DB>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
    if (rows[0]!.n > 0) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('no statement waited for a lock')
}
