import type { Kysely, Transaction } from 'kysely'
import type { DB } from './schema.ts'

/** Repositories take this: the database or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>
