import type { Kysely } from 'kysely'

/**
 * GET /calling-kanban/proposals?stage=S lists newest first. With only
 * (stage, stage_changed_at) to go by, SQLite read every proposal at the stage
 * and sorted them all, running the vote subqueries for each (17,000 `done`
 * proposals on the benchmark's stake: ~180 ms); PostgreSQL hash-joined every
 * interview. Ordered by submission within the stage, both walk the index
 * backwards and stop at the page (docs/performance.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('proposals_stage_submitted_idx')
    .on('proposals')
    .columns(['stage', 'submitted_at', 'id'])
    .execute()
}
