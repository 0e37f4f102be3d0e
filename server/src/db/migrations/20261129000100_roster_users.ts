import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../dialect.ts'

/**
 * Roster-only and passwordless users (docs/api-reference.md §15, §16): a
 * person without an email holds callings and never signs in; a person
 * invited but not yet arrived has no password. Users gain a phone number
 * (read from LCR reports). Emails stay unique across the deployment when
 * present (NULLs are distinct in a UNIQUE constraint on both databases).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`ALTER TABLE users ALTER COLUMN email DROP NOT NULL`.execute(db)
    await sql`ALTER TABLE users ALTER COLUMN email_key DROP NOT NULL`.execute(db)
    await sql`ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL`.execute(db)
    await sql`ALTER TABLE users ADD COLUMN phone varchar(40)`.execute(db)
    return
  }
  // SQLite cannot drop NOT NULL: the table is rebuilt from its own definition,
  // with foreign keys off for the rebuild and checked before commit.
  await sql`PRAGMA foreign_keys = OFF`.execute(db)
  try {
    await sql`BEGIN`.execute(db)
    try {
      const [table] = (
        await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'users'`.execute(db)
      ).rows
      const indexes = await sql<{ sql: string }>`
        SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'users' AND sql IS NOT NULL`.execute(db)
      let create = table!.sql.replace('CREATE TABLE "users"', 'CREATE TABLE "users__new"')
      for (const column of ['"email" varchar(254)', '"email_key" varchar(254)', '"password_hash" text']) {
        const before = create
        create = create.replace(`${column} not null`, column)
        if (create === before) throw new Error(`roster users migration: ${column} not found in ${table!.sql}`)
      }
      await sql.raw(create).execute(db)
      await sql`INSERT INTO users__new SELECT * FROM users`.execute(db)
      await sql`DROP TABLE users`.execute(db)
      await sql`ALTER TABLE users__new RENAME TO users`.execute(db)
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db)
      await sql`ALTER TABLE users ADD COLUMN phone varchar(40)`.execute(db)
      const broken = await sql`PRAGMA foreign_key_check`.execute(db)
      if (broken.rows.length)
        throw new Error(`roster users migration: foreign keys broken: ${JSON.stringify(broken.rows)}`)
      await sql`COMMIT`.execute(db)
    } catch (error) {
      await sql`ROLLBACK`.execute(db)
      throw error
    }
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db)
  }
}
