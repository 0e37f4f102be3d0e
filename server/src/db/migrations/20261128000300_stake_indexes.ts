import type { Kysely } from 'kysely'

/**
 * GET /calling-kanban/proposals?ward_id=N among many stakes (docs/performance.md,
 * "Many stakes"). The list's query is `ward_id = N AND stake_id = S` (the stake
 * filter is added to every query), newest first. With only (ward_id,
 * submitted_at), PostgreSQL multiplied the two conditions' selectivities as if
 * they were independent — a ward belongs to one stake, so they are not — and
 * expected ~7 of a ward's ~700 rows: it then ANDed the ward's bitmap with the
 * whole stake's (21,000 entries) and sorted every row of the ward with its
 * interview instead of walking the index backwards to the page (1 → 10 ms per
 * query on 100 stakes; alone in its database the stake got the good plan).
 * With the stake in the index after the ward, both conditions are index
 * conditions and the order is the index's, whatever the estimate. The ward
 * stays first, so the foreign-key check on deleting a ward (ward_id alone, no
 * stake) still finds its rows through it. SQLite uses it the same way.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('proposals_ward_idx').execute()
  await db.schema
    .createIndex('proposals_ward_idx')
    .on('proposals')
    .columns(['ward_id', 'stake_id', 'submitted_at', 'id'])
    .execute()
}
