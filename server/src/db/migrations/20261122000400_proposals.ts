import { sql, type Kysely } from 'kysely'
import { withId } from '../dialect.ts'

const STAGES = ['sp_approval', 'hc_approval', 'interview', 'sustain', 'set_apart', 'record', 'done', 'declined']

/** CHECK (<column> IN (<the stage names>)); names and values are constants of this file. */
const stageCheck = (column: string) => sql.raw(`${column} IN (${STAGES.map((s) => `'${s}'`).join(', ')})`)

/**
 * The calling-proposal tracker (docs/api-reference.md §7).
 *
 * proposals.ward_id has no ON DELETE action: a ward that proposals refer to
 * cannot be deleted (docs/api-reference.md §6, 409 from the wards module). Everything that
 * hangs off a proposal goes with it (DELETE /proposals/{id}).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('proposals'))
    .addColumn('fname', 'varchar(100)', (c) => c.notNull())
    .addColumn('lname', 'varchar(100)', (c) => c.notNull())
    .addColumn('spouse_name', 'varchar(100)')
    .addColumn('proposed_calling', 'varchar(200)', (c) => c.notNull())
    .addColumn('ward_id', 'integer', (c) => c.notNull().references('wards.id'))
    .addColumn('submitter', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('is_release', 'boolean', (c) => c.notNull())
    .addColumn('stage', 'varchar(16)', (c) => c.notNull().check(stageCheck('stage')))
    .addColumn('stage_changed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('submitted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  // The board reads by stage (and closed ones by when they closed); lists
  // filter by ward and by submitter (visibility) and sort by submission.
  await db.schema.createIndex('proposals_stage_idx').on('proposals').columns(['stage', 'stage_changed_at']).execute()
  await db.schema.createIndex('proposals_ward_idx').on('proposals').columns(['ward_id', 'submitted_at']).execute()
  await db.schema.createIndex('proposals_submitter_idx').on('proposals').column('submitter').execute()
  await db.schema.createIndex('proposals_submitted_idx').on('proposals').columns(['submitted_at', 'id']).execute()

  await withId(db, db.schema.createTable('proposal_history'))
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id').onDelete('cascade'))
    .addColumn('from_stage', 'varchar(16)', (c) => c.check(stageCheck('from_stage')))
    .addColumn('to_stage', 'varchar(16)', (c) => c.notNull().check(stageCheck('to_stage')))
    .addColumn('by_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('note', 'text')
    .execute()
  await db.schema
    .createIndex('proposal_history_proposal_idx')
    .on('proposal_history')
    .columns(['proposal_id', 'id'])
    .execute()

  // One vote per voter per stage: re-voting updates the row. Votes are kept
  // per stage, not per visit, so they still count after a revert.
  await withId(db, db.schema.createTable('proposal_votes'))
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id').onDelete('cascade'))
    .addColumn('stage', 'varchar(16)', (c) => c.notNull().check(stageCheck('stage')))
    .addColumn('approver_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('approved', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('proposal_votes_voter_uq', ['proposal_id', 'stage', 'approver_id'])
    .execute()

  await withId(db, db.schema.createTable('proposal_interviews'))
    .addColumn('proposal_id', 'integer', (c) => c.notNull().unique().references('proposals.id').onDelete('cascade'))
    .addColumn('interviewer_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('scheduled_for', 'varchar(32)')
    .addColumn('interview_date', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('proposal_comments'))
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id').onDelete('cascade'))
    .addColumn('commenter_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('comment_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('edited_at', 'varchar(32)')
    .execute()
  await db.schema
    .createIndex('proposal_comments_proposal_idx')
    .on('proposal_comments')
    .columns(['proposal_id', 'id'])
    .execute()
}
