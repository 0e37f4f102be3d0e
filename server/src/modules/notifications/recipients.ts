import { sql } from 'kysely'
import type { EmailPreference, Stage } from '@stake/contract'
import type { Dialect } from '../../db/database.ts'
import type { Executor } from '../../db/types.ts'
import { holdersOf, seatsOf } from '../callings/seats.repository.ts'
import { PRESIDENCY_KEYS, ROLE_KEYS, rolesFromSeats, type Viewer } from '../proposals/proposals.policy.ts'
import { effectivePermissionList, parsePermissionList } from '../users/permissions.repository.ts'
import type { DB } from '../../db/schema.ts'
import type { Kysely } from 'kysely'

/** A possible recipient with what decides whether and how he is told. */
export interface Candidate {
  id: number
  /** Null for a roster-only person: nothing is mailed. */
  email: string | null
  fname: string
  lname: string
  language: string
  active: boolean
  email_preference: EmailPreference
  viewer: Viewer
}

/**
 * The users `ids` as the tracker's visibility rule sees them (permissions
 * and seats), with their language and mail preference: three queries
 * however many there are.
 */
export async function loadCandidates(db: Executor, dialect: Dialect, ids: number[]): Promise<Candidate[]> {
  if (ids.length === 0) return []
  const users = await db
    .selectFrom('users as u')
    .leftJoin('notification_preferences as np', 'np.user_id', 'u.id')
    .select([
      'u.id',
      'u.email',
      'u.fname',
      'u.lname',
      'u.language',
      'u.active',
      'np.email as email_preference',
      effectivePermissionList(db as Kysely<DB>, dialect, sql.ref('u.id')).as('permissions'),
    ])
    .where('u.id', 'in', ids)
    .execute()
  const seats = await seatsOf(db, ids, ROLE_KEYS)
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    fname: u.fname,
    lname: u.lname,
    language: u.language,
    active: Boolean(u.active),
    email_preference: u.email === null ? 'off' : (u.email_preference ?? 'immediate'),
    viewer: {
      id: u.id,
      permissions: parsePermissionList(u.permissions),
      roles: rolesFromSeats(seats.filter((s) => s.user_id === u.id)),
    },
  }))
}

/**
 * Active users whose seat votes at `stage` and who have not voted on the
 * proposal there (a vote at an earlier visit to the stage still counts, as
 * in the tally and the action queue).
 */
export async function missingVoters(db: Executor, proposalId: number, stage: Stage): Promise<number[]> {
  const keys: readonly string[] =
    stage === 'sp_approval' ? PRESIDENCY_KEYS : stage === 'hc_approval' ? ['high_councilor'] : []
  if (keys.length === 0) return []
  const rows = await holdersOf(db, keys)
    .select('u.id')
    .distinct()
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('proposal_votes as v')
            .select('v.id')
            .where('v.proposal_id', '=', proposalId)
            .where('v.stage', '=', stage)
            .whereRef('v.approver_id', '=', 'u.id'),
        ),
      ),
    )
    .orderBy('u.id')
    .execute()
  return rows.map((r) => r.id)
}

/** The submitter, everyone who commented and everyone who voted on the proposal (comment recipients). */
export async function participants(db: Executor, proposalId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('proposal_comments')
    .select('commenter_id as id')
    .where('proposal_id', '=', proposalId)
    .union(db.selectFrom('proposal_votes').select('approver_id as id').where('proposal_id', '=', proposalId))
    .execute()
  return rows.map((r) => r.id)
}
