import { sql, type Kysely } from 'kysely'

/**
 * `proposals.declined_from`: the stage a declined proposal was declined at
 * (null for every other proposal). A proposal declined while still at
 * sp_approval stays as private as that stage (docs/api-reference.md §10, S9), so who may
 * see a proposal depends on `coalesce(declined_from, stage)`. Backfilled from
 * the history row of each decline.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('proposals').addColumn('declined_from', 'varchar(20)').execute()
  await sql`
    update proposals set declined_from = (
      select h.from_stage from proposal_history h
      where h.proposal_id = proposals.id and h.to_stage = 'declined'
      order by h.id desc limit 1
    )
    where stage = 'declined'`.execute(db)
}
