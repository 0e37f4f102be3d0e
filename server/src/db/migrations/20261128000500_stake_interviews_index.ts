import type { Kysely } from 'kysely'

/**
 * The board's cards left-join their interviews (`i.proposal_id = p.id AND
 * i.stake_id = <stake>`). For ~1,100 cards PostgreSQL hashes the stake's
 * interviews, and without an index that starts with the stake it read every
 * stake's: on the 100-stake bench database (187,652 interviews, 18,263 of the
 * big stake) the statement took 38 ms against 13 ms for the stake alone. With
 * (stake_id, proposal_id) it reads the stake's own: 13 ms among the 100 stakes
 * (EXPLAIN ANALYZE as the server's role, docs/performance.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('proposal_interviews_stake_idx')
    .on('proposal_interviews')
    .columns(['stake_id', 'proposal_id'])
    .execute()
}
