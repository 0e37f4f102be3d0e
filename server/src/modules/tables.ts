import {
  isStakeTable,
  isTransferred,
  type Outbox,
  type RowsOf,
  type TableDescriptor,
  type Transfer,
} from '../db/table.ts'
import { accountsTables } from './accounts/accounts.tables.ts'
import { appointmentsTables } from './appointments/appointments.tables.ts'
import { auditTables } from './audit/audit.tables.ts'
import { authTables } from './auth/auth.tables.ts'
import { callingsTables } from './callings/callings.tables.ts'
import { importsTables } from './imports/imports.tables.ts'
import { limitsTables } from './limits/limits.tables.ts'
import { notificationsTables } from './notifications/notifications.tables.ts'
import { opsTables } from './ops/ops.tables.ts'
import { proposalsTables } from './proposals/proposals.tables.ts'
import { pushTables } from './push/push.tables.ts'
import { speakingTables } from './speaking/speaking.tables.ts'
import { stakesTables } from './stakes/stakes.tables.ts'
import { stewardshipsTables } from './stewardships/stewardships.tables.ts'
import { usersTables } from './users/users.tables.ts'
import { wardsTables } from './wards/wards.tables.ts'
import { webhooksTables } from './webhooks/webhooks.tables.ts'

/**
 * Every table of the database, declared once in its domain's
 * `<domain>.tables.ts` (db/table.ts) and gathered here; every list of tables
 * is derived from this (ARCHITECTURE.md, "Tables declared once"), and
 * security/schema-declarations.test.ts holds it against the real schema.
 *
 * The order matters: a table comes after every table it references, so a
 * stake import inserts parents first and a stake delete (the reverse) removes
 * children first.
 */
export const TABLES = {
  ...wardsTables,
  ...usersTables,
  ...authTables,
  ...callingsTables,
  ...proposalsTables,
  ...speakingTables,
  ...notificationsTables,
  ...webhooksTables,
  ...auditTables,
  ...appointmentsTables,
  ...stewardshipsTables,
  ...importsTables,
  ...accountsTables,
  ...pushTables,
  ...stakesTables,
  ...opsTables,
  ...limitsTables,
}

type Rows = RowsOf<typeof TABLES>
declare module '../db/schema.ts' {
  /** Kysely's schema type (db/schema.ts): every declared table's row type. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the declarations are its members
  interface DB extends Rows {}
}
export type TableName = keyof Rows & string

const declared = Object.entries(TABLES) as [TableName, TableDescriptor][]

/** Every table whose rows belong to one stake (db/stake-scope.ts scopes them). */
const stakeOwned: readonly TableName[] = declared.filter(([, d]) => isStakeTable(d)).map(([n]) => n)
export const STAKE_TABLES: ReadonlySet<string> = new Set(stakeOwned)

/** What `stake export` copies, parents before children (the order of an import). */
export const TRANSFERRED: readonly ({ table: TableName } & Transfer)[] = declared.flatMap(([table, d]) =>
  isStakeTable(d) && isTransferred(d) ? [{ table, ...d.transfer }] : [],
)

/** Stake-owned tables `stake export` never copies (sessions, tokens, credentials, queues of those). */
export const NOT_TRANSFERRED: readonly TableName[] = declared.flatMap(([table, d]) =>
  isStakeTable(d) && !isTransferred(d) ? [table] : [],
)

/** Every stake-owned table, children before parents: the order of a stake's delete. */
export const DELETE_ORDER: readonly TableName[] = [...stakeOwned].reverse()

/** The outboxes workers drain (delivery/outbox.ts), with the status and column of a sent row. */
export const OUTBOXES = Object.fromEntries(
  declared.flatMap(([table, d]) => (isStakeTable(d) && d.outbox ? [[table, d.outbox]] : [])),
) as Record<OutboxName, Outbox>

type OutboxOf<K extends TableName> = (typeof TABLES)[K] extends { outbox: Outbox } ? K : never
/** The outbox tables, by name. */
export type OutboxName = { [K in TableName]: OutboxOf<K> }[TableName]
