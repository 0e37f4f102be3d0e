import { sql, type Kysely } from 'kysely'

/**
 * The speaking schedule (docs/api-reference.md §8). The default rotation is computed, not
 * stored; only overrides and monthly topics are rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row pins one seat's ward in one month (ward_id NULL = not speaking).
  // - The row belongs to the seat (the High Councilor slot), not to its holder,
  //   so it survives a change of holder; it goes with the slot if the seat count
  //   is lowered (cascade through the composite key).
  // - ward_id has NO cascade: a ward that overrides refer to cannot be deleted.
  // - UNIQUE (year, month, ward_id): no ward is held by two override rows in one
  //   month (NULLs do not collide, so several seats may rest). Rotation cells
  //   without a row are kept apart from the rows by speaking.rotation.ts.
  await db.schema
    .createTable('speaking_overrides')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('calling_id', 'integer', (c) => c.notNull())
    .addColumn('slot_id', 'integer', (c) => c.notNull())
    .addColumn('ward_id', 'integer', (c) => c.references('wards.id'))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('speaking_overrides_pk', ['year', 'month', 'calling_id', 'slot_id'])
    .addUniqueConstraint('speaking_overrides_ward_uq', ['year', 'month', 'ward_id'])
    .addForeignKeyConstraint(
      'speaking_overrides_slot_fk',
      ['calling_id', 'slot_id'],
      'calling_slots',
      ['calling_id', 'slot_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addCheckConstraint('speaking_overrides_year_ck', sql`year >= 2000 AND year <= 2100`)
    .addCheckConstraint('speaking_overrides_month_ck', sql`month >= 1 AND month <= 12`)
    .execute()
  // Looked up when a ward is deleted (the foreign-key check) and when a slot goes.
  await db.schema.createIndex('speaking_overrides_ward_idx').on('speaking_overrides').column('ward_id').execute()
  await db.schema
    .createIndex('speaking_overrides_slot_idx')
    .on('speaking_overrides')
    .columns(['calling_id', 'slot_id'])
    .execute()

  await db.schema
    .createTable('speaking_topics')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('topic', 'varchar(200)', (c) => c.notNull())
    .addColumn('reference', 'varchar(2000)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('speaking_topics_pk', ['year', 'month'])
    .addCheckConstraint('speaking_topics_year_ck', sql`year >= 2000 AND year <= 2100`)
    .addCheckConstraint('speaking_topics_month_ck', sql`month >= 1 AND month <= 12`)
    .execute()
}
