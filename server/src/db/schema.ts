/**
 * Kysely's schema type: every table's row type. db/ knows no module, so it
 * is empty here; the composition root (modules/tables.ts) fills it in from
 * the table declarations (db/table.ts) by augmenting this interface, and
 * every `Kysely<DB>` in the code base sees the full schema.
 *
 * Timestamps are ISO 8601 UTC strings (`...Z`) on both databases, so they
 * compare correctly as text and need no per-dialect parsing. Booleans are
 * real booleans on PostgreSQL and 0/1 on SQLite: read them with Boolean().
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface DB {}
