import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { blankDatabase, migrateUpTo } from '../test/blank-database.ts'
import { dialect } from '../test/harness.ts'
import { migrate } from './migrate.ts'

/**
 * The composite-keys migration reads the schema as it finds it: columns,
 * indexes and triggers that earlier migrations (or an operator) added to a
 * table it rewrites survive, and so do the rows, the AUTOINCREMENT counter
 * and the integrity of every foreign key. On SQLite the tables are rebuilt;
 * on PostgreSQL altered in place.
 */
const COMPOSITE = '20261203000100_composite_stake_keys'

async function foreignKeys(db: Kysely<any>, table: string): Promise<string[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ key: string }>`
          SELECT group_concat("from", ',') || '>' || "table" || '(' || group_concat("to", ',') || ') ' || on_delete AS key
          FROM (SELECT * FROM pragma_foreign_key_list(${table}) ORDER BY id, seq) GROUP BY id`.execute(db)
      : await sql<{ key: string }>`
          SELECT pg_get_constraintdef(oid) AS key FROM pg_constraint WHERE contype = 'f' AND conrelid = ${table}::regclass`.execute(
          db,
        )
  return rows.map((r) => r.key).sort()
}

describe('the composite-keys migration keeps what it finds', () => {
  it('keeps an added column, its index, a trigger, the rows and the id counter; the keys become composite', async () => {
    const { database } = await blankDatabase()
    // The schema as it was before this migration, not as the declarations say it is now.
    const db = database.db.withoutPlugins() as unknown as Kysely<any>
    await migrateUpTo(db, COMPOSITE)
    const now = '2026-12-03T00:00:00.000Z'
    // What a later helper's migration (earlier timestamp) may have added.
    await sql`ALTER TABLE mail_outbox ADD COLUMN extra varchar(20) DEFAULT 'kept'`.execute(db)
    await sql`CREATE INDEX mail_outbox_extra_idx ON mail_outbox (extra)`.execute(db)
    if (dialect === 'sqlite') {
      await sql`CREATE TRIGGER mail_outbox_touch AFTER UPDATE OF status ON mail_outbox
        BEGIN UPDATE mail_outbox SET extra = 'touched' WHERE id = NEW.id; END`.execute(db)
    }
    const [user] = (
      await sql<{ id: number }>`
        INSERT INTO users (stake_id, email, email_key, fname, lname, active, force_password_reset, created_at, updated_at)
        VALUES (1, 'kept@example.org', 'kept@example.org', 'K', 'L', true, false, ${now}, ${now}) RETURNING id`.execute(
        db,
      )
    ).rows as [{ id: number }]
    const mail = (i: number) => ({
      stake_id: 1,
      user_id: user.id,
      to_address: 'kept@example.org',
      kind: 'test',
      subject: `m${i}`,
      text_body: '',
      html_body: '',
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      extra: `row ${i}`,
    })
    await db
      .insertInto('mail_outbox')
      .values([mail(1), mail(2), mail(3)])
      .execute()
    await db.deleteFrom('mail_outbox').where('subject', 'in', ['m2', 'm3']).execute()
    const before = await db.selectFrom('mail_outbox').selectAll().orderBy('id').execute()

    await migrate(db)

    assert.deepEqual(await db.selectFrom('mail_outbox').selectAll().orderBy('id').execute(), before)
    const next = await db.insertInto('mail_outbox').values(mail(4)).returning('id').executeTakeFirstOrThrow()
    assert.ok(next.id > before[0]!.id + 2, `the id counter went on (${next.id}), it did not reuse deleted ids`)
    const indexes =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`SELECT name FROM pragma_index_list('mail_outbox')`.execute(db)
        : await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'mail_outbox'`.execute(
            db,
          )
    assert.ok(indexes.rows.some((r) => r.name === 'mail_outbox_extra_idx'))
    assert.ok(indexes.rows.some((r) => r.name === 'mail_outbox_due_idx'))
    if (dialect === 'sqlite') {
      await db.updateTable('mail_outbox').set({ status: 'sent' }).where('id', '=', next.id).execute()
      const touched = await db.selectFrom('mail_outbox').select('extra').where('id', '=', next.id).executeTakeFirst()
      assert.equal(touched?.extra, 'touched', 'the trigger was re-created')
      assert.deepEqual((await sql`PRAGMA foreign_key_check`.execute(db)).rows, [])
      assert.deepEqual(await foreignKeys(db, 'mail_outbox'), [
        'stake_id,user_id>users(stake_id,id) NO ACTION',
        'stake_id>stakes(id) NO ACTION',
        'user_id>users(id) SET NULL',
      ])
    } else {
      assert.deepEqual(await foreignKeys(db, 'mail_outbox'), [
        'FOREIGN KEY (stake_id) REFERENCES stakes(id)',
        'FOREIGN KEY (stake_id, user_id) REFERENCES users(stake_id, id) ON DELETE SET NULL (user_id)',
      ])
    }
    await database.close()
  })
})
