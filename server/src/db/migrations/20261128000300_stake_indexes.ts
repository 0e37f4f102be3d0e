import type { Kysely } from 'kysely'

/**
 * Two lookups that grew with the number of stakes in the database, found by
 * the benchmark's many-stakes section (docs/performance.md, "Many stakes"):
 * the big stake among 99 others, against the same stake alone.
 *
 * - GET /calling-kanban/proposals?ward_id=N: the query is `ward_id = N AND
 *   stake_id = S` (the stake filter is on every query), newest first. With
 *   only (ward_id, submitted_at), PostgreSQL multiplied the two conditions'
 *   selectivities as if independent — a ward belongs to one stake — expected
 *   ~7 of the ward's ~700 rows, ANDed the ward's bitmap with the whole
 *   stake's (21,000 entries) and sorted every row of the ward with its
 *   interview, instead of walking the index backwards to the page (1 → 10 ms
 *   per statement; the route 1.85× alone). With the stake after the ward
 *   both are index conditions and the order is the index's, whatever the
 *   estimate. The ward stays first, so the foreign-key check on deleting a
 *   ward (ward_id alone) still finds its rows through it.
 * - GET /speaking/calendar/{year}: `year = Y AND stake_id = S` on
 *   speaking_overrides went through the (year, month, ward_id) key and read
 *   every stake's overrides of the year (3,600 rows for 36 on 100 stakes:
 *   0.02 → 0.6 ms on SQLite, 0.05 → 3.7 ms on PostgreSQL; the route 1.44×
 *   on SQLite). Led by the stake it reads the stake's 36.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('proposals_ward_idx').execute()
  await db.schema
    .createIndex('proposals_ward_idx')
    .on('proposals')
    .columns(['ward_id', 'stake_id', 'submitted_at', 'id'])
    .execute()
  await db.schema
    .createIndex('speaking_overrides_stake_year_idx')
    .on('speaking_overrides')
    .columns(['stake_id', 'year', 'month'])
    .execute()
}
