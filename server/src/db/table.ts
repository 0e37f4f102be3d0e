/**
 * How a table is declared (ARCHITECTURE.md, "Tables declared once"). Each
 * domain's `<domain>.tables.ts` declares its tables with `stakeTable` or
 * `deploymentTable`, next to their row types; the composition root
 * (modules/tables.ts) gathers them, and every list of tables — the stake
 * scope, the stake export, the outboxes, the Kysely schema type — is derived
 * from there. db/ itself never imports a module: it receives what it needs
 * (stake-scope.ts's plugin takes the stake-owned names as a parameter).
 */

type Column<Row> = keyof Row & string

/** How `stake export` copies a stake-owned table's rows (modules/stakes/stakes.transfer.ts). */
export interface Transfer<Row = Record<string, unknown>> {
  /** A generated integer `id` (left to the database on import). */
  id?: boolean
  /** Columns holding another row's id → the table of that row (renumbered on import). */
  refs?: Partial<Record<Column<Row>, string>>
  /** Columns that are never exported (secrets). */
  omit?: Column<Row>[]
  /** Boolean columns: written as true/false whatever the database (SQLite keeps 0/1). */
  booleans?: Column<Row>[]
  /** The rows' order in the file (and so of their new ids). */
  orderBy: Column<Row>[]
}

/** A queue a worker drains (delivery/outbox.ts): the status and column a row gets once sent. */
export interface Outbox {
  sent: string
  sentAt: string
}

interface Common<Row> {
  /** Never read: carries the row type, so the schema type is derived from the declarations. */
  readonly row?: Row
}

/** Every row belongs to one stake: `stake_id`, the query filter, row-level security on PostgreSQL. */
export interface StakeTable<Row = unknown> extends Common<Row> {
  owner: 'stake'
  /** Copied by `stake export`, or why it never is (a credential, something transient). */
  transfer: Transfer | { never: string }
  outbox?: Outbox
}

/** Shared by every stake of the deployment (the stakes themselves, sign-in throttling, …). */
export interface DeploymentTable<Row = unknown> extends Common<Row> {
  owner: 'deployment'
  /** Why it is not a stake's. */
  why: string
  /** Set when the table has a `stake_id` column anyway: why that column does not make it stake-owned. */
  stakeColumn?: string
}

export type TableDescriptor<Row = unknown> = StakeTable<Row> | DeploymentTable<Row>

/** A stake-owned table with row type `Row`. */
export function stakeTable<Row>(spec: { transfer: Transfer<Row> | { never: string } }): StakeTable<Row> {
  return { owner: 'stake', transfer: spec.transfer as Transfer }
}

/** A stake-owned queue a worker drains (delivery/outbox.ts). */
export function outboxTable<Row>(spec: {
  transfer: Transfer<Row> | { never: string }
  outbox: Outbox
}): StakeTable<Row> & { outbox: Outbox } {
  return { owner: 'stake', transfer: spec.transfer as Transfer, outbox: spec.outbox }
}

/** A deployment-wide table with row type `Row`. */
export function deploymentTable<Row>(spec: { why: string; stakeColumn?: string }): DeploymentTable<Row> {
  return { owner: 'deployment', ...spec }
}

/** The row types of a set of declarations: `{ users: UsersTable, ... }`, Kysely's schema type. */
export type RowsOf<T> = { [K in keyof T]: T[K] extends TableDescriptor<infer Row> ? Row : never }

/** Whether a declared table is stake-owned. */
export function isStakeTable(d: TableDescriptor): d is StakeTable {
  return d.owner === 'stake'
}

/** Whether a stake-owned table is copied by `stake export`. */
export function isTransferred(d: StakeTable): d is StakeTable & { transfer: Transfer } {
  return !('never' in d.transfer)
}
