import { AsyncLocalStorage } from 'node:async_hooks'
import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  IdentifierNode,
  OnNode,
  OperationNodeTransformer,
  OperatorNode,
  PrimitiveValueListNode,
  ReferenceNode,
  SelectionNode,
  SelectQueryNode,
  TableNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  WhereNode,
  type DeleteQueryNode,
  type InsertQueryNode,
  type JoinNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type UpdateQueryNode,
} from 'kysely'

/**
 * Stakes are sealed (docs/api-reference.md §14). Every stake-owned table
 * carries `stake_id`; which stake a query runs in comes from the async context
 * of the code that runs it — a request's session, a job's loop over the
 * stakes — never from a request body.
 *
 * First wall, both databases: a Kysely plugin puts `<table>.stake_id = <the
 * stake>` on every reference to a stake-owned table (FROM, every JOIN's ON,
 * UPDATE, DELETE, subqueries) and the stake into every INSERT, so no query can
 * forget its filter. Second wall, PostgreSQL: row-level security on the same
 * tables, on the connection setting `app.stake_id` that pg-pool.ts keeps
 * equal to the same context before every statement.
 *
 * Which tables are stake-owned is the caller's to say (`stakeTables`: the
 * app's list, derived from its table declarations in modules/tables.ts):
 * db/ knows no module.
 *
 * Outside any context a query on a stake-owned table throws: background code
 * must say which stake it works for (`inStake`) or that it works across all
 * of them (`acrossStakes`: workers, the operator's CLI, migrations).
 */

/** The stake a piece of work runs in: one stake's id, or every stake (system work). */
export type StakeScope = { stakeId: number } | { all: true }

/** A context's stake, changeable while it runs (a request learns its stake from its session). */
export interface ScopeStore {
  scope: StakeScope | null
}

const storage = new AsyncLocalStorage<ScopeStore>()

/** Runs `fn` inside one stake. */
export function inStake<T>(stakeId: number, fn: () => T): T {
  return storage.run({ scope: { stakeId } }, fn)
}

/** Runs `fn` across every stake: workers, the operator's CLI, migrations. Inserts must name their stake. */
export function acrossStakes<T>(fn: () => T): T {
  return storage.run({ scope: { all: true } }, fn)
}

/**
 * Runs `fn` inside `store`, whose stake may be decided later in the same flow
 * (a request: the default stake first, the session's once it is checked).
 * Re-entered after steps that lose the async context (a request's body is
 * read from socket events).
 */
export function runInScope<T>(store: ScopeStore, fn: () => T): T {
  return storage.run(store, fn)
}

/** Changes the stake of the current context (a request once its session is known). */
export function setScope(scope: StakeScope | null): void {
  const store = storage.getStore()
  if (!store) throw new Error('setScope outside a scope slot')
  store.scope = scope
}

export function currentScope(): StakeScope | null {
  return storage.getStore()?.scope ?? null
}

/** The stake of the current context; throws across stakes or outside any. */
export function currentStakeId(): number {
  const scope = currentScope()
  if (!scope || !('stakeId' in scope)) throw new StakeScopeError('This needs one stake')
  return scope.stakeId
}

/**
 * The value of PostgreSQL's `app.stake_id` for the current context: a stake
 * id, `all`, or '' (nothing). `fallback`: the scope outside any context, as
 * the plugin's (createDatabase's `fallbackScope`).
 */
export function scopeSetting(fallback: StakeScope | null = null): string {
  const store = storage.getStore()
  const scope = store ? store.scope : fallback
  if (!scope) return ''
  return 'all' in scope ? 'all' : String(scope.stakeId)
}

export class StakeScopeError extends Error {
  constructor(message: string) {
    super(`Stake scope: ${message}`)
    this.name = 'StakeScopeError'
  }
}

const STAKE_COLUMN = 'stake_id'

function tableOf(node: OperationNode): { table: string; ref: string } | null {
  if (TableNode.is(node)) {
    const name = node.table.identifier.name
    return { table: name, ref: name }
  }
  if (AliasNode.is(node) && TableNode.is(node.node) && IdentifierNode.is(node.alias)) {
    return { table: node.node.table.identifier.name, ref: node.alias.name }
  }
  return null
}

function stakeFilter(ref: string, stakeId: number): OperationNode {
  return BinaryOperationNode.create(
    ReferenceNode.create(ColumnNode.create(STAKE_COLUMN), TableNode.create(ref)),
    OperatorNode.create('='),
    ValueNode.create(stakeId),
  )
}

function andWhere(where: WhereNode | undefined, filters: OperationNode[]): WhereNode | undefined {
  let result = where
  for (const filter of filters)
    result = result ? WhereNode.cloneWithOperation(result, 'And', filter) : WhereNode.create(filter)
  return result
}

/** The plugin's transformer for one query: the scope is read once per query, when it is built for execution. */
class ScopeTransformer extends OperationNodeTransformer {
  constructor(
    private readonly scope: StakeScope | null,
    private readonly stakeTables: ReadonlySet<string>,
  ) {
    super()
  }

  /** The stake to filter by, or null across stakes; throws outside any scope. */
  private stakeFor(table: string): number | null {
    if (!this.scope) throw new StakeScopeError(`a query on ${table} outside any stake`)
    return 'stakeId' in this.scope ? this.scope.stakeId : null
  }

  private filtersFor(nodes: readonly OperationNode[] | undefined): OperationNode[] {
    const filters: OperationNode[] = []
    for (const node of nodes ?? []) {
      const t = tableOf(node)
      if (!t || !this.stakeTables.has(t.table)) continue
      const stakeId = this.stakeFor(t.table)
      if (stakeId !== null) filters.push(stakeFilter(t.ref, stakeId))
    }
    return filters
  }

  protected override transformSelectQuery(node: SelectQueryNode, queryId: PluginTransformQueryArgs['queryId']) {
    const result = super.transformSelectQuery(node, queryId)
    const filters = this.filtersFor(node.from?.froms)
    return filters.length ? { ...result, where: andWhere(result.where, filters) } : result
  }

  protected override transformJoin(node: JoinNode, queryId: PluginTransformQueryArgs['queryId']) {
    const result = super.transformJoin(node, queryId)
    const [filter] = this.filtersFor([node.table])
    if (!filter) return result
    return { ...result, on: result.on ? OnNode.cloneWithOperation(result.on, 'And', filter) : OnNode.create(filter) }
  }

  protected override transformUpdateQuery(node: UpdateQueryNode, queryId: PluginTransformQueryArgs['queryId']) {
    const result = super.transformUpdateQuery(node, queryId)
    const filters = this.filtersFor([...(node.table ? [node.table] : []), ...(node.from?.froms ?? [])])
    return filters.length ? { ...result, where: andWhere(result.where, filters) } : result
  }

  protected override transformDeleteQuery(node: DeleteQueryNode, queryId: PluginTransformQueryArgs['queryId']) {
    const result = super.transformDeleteQuery(node, queryId)
    const filters = this.filtersFor([...node.from.froms, ...(node.using?.tables ?? [])])
    return filters.length ? { ...result, where: andWhere(result.where, filters) } : result
  }

  protected override transformInsertQuery(node: InsertQueryNode, queryId: PluginTransformQueryArgs['queryId']) {
    const result = super.transformInsertQuery(node, queryId)
    const t = node.into && tableOf(node.into)
    if (!t || !this.stakeTables.has(t.table)) return result
    const stakeId = this.stakeFor(t.table)
    const columns = result.columns ?? []
    const named = columns.findIndex((c) => c.column.name === STAKE_COLUMN)
    if (stakeId === null) {
      // Across stakes (an import, a worker): the row must say which stake it belongs to.
      if (named < 0) throw new StakeScopeError(`an insert into ${t.table} across stakes must name its stake`)
      return result
    }
    if (result.values && SelectQueryNode.is(result.values) && named < 0) {
      // INSERT ... SELECT: the stake as one more selected value (a literal: a parameter there has no type on PostgreSQL).
      const select = result.values
      const stake = SelectionNode.create(
        AliasNode.create(ValueNode.createImmediate(stakeId), IdentifierNode.create(STAKE_COLUMN)),
      )
      return {
        ...result,
        columns: [...columns, ColumnNode.create(STAKE_COLUMN)],
        values: { ...select, selections: [...(select.selections ?? []), stake] },
      }
    }
    if (!result.values || !ValuesNode.is(result.values)) {
      throw new StakeScopeError(`an insert into ${t.table} from a query cannot be scoped`)
    }
    if (named >= 0) {
      // A named stake must be the current one.
      for (const row of result.values.values) {
        const value = PrimitiveValueListNode.is(row)
          ? row.values[named]
          : ValueNode.is(row.values[named]!)
            ? (row.values[named] as ValueNode).value
            : undefined
        if (value !== stakeId) throw new StakeScopeError(`an insert into ${t.table} for another stake`)
      }
      return result
    }
    const values = ValuesNode.create(
      result.values.values.map((row) =>
        PrimitiveValueListNode.is(row)
          ? PrimitiveValueListNode.create([...row.values, stakeId])
          : ValueListNode.create([...row.values, ValueNode.create(stakeId)]),
      ),
    )
    return { ...result, columns: [...columns, ColumnNode.create(STAKE_COLUMN)], values }
  }
}

/**
 * The first wall (see above). Queries on tables outside `stakeTables` (stakes,
 * app settings, sign-in throttling, the migrations' own tables) pass as they are.
 */
export class StakeScopePlugin implements KyselyPlugin {
  /**
   * `stakeTables`: the stake-owned tables; `fallback`: the scope of queries
   * run outside any context (tests' and the operator's direct access); null throws.
   */
  constructor(
    private readonly stakeTables: ReadonlySet<string>,
    private readonly fallback: StakeScope | null = null,
  ) {}

  /** The scope this plugin's queries run in now: the context's, or outside any context the fallback. */
  scope(): StakeScope | null {
    const store = storage.getStore()
    return store ? store.scope : this.fallback
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const scope = this.scope()
    return new ScopeTransformer(scope, this.stakeTables).transformNode(args.node, args.queryId)
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}

/**
 * The one stake `db`'s queries on stake-owned tables run in now: the
 * context's, or (outside any context) the fallback of `db`'s plugin, as for
 * the tests' and the operator's direct handles. Throws across stakes or
 * without any stake, like currentStakeId().
 */
export function stakeIdOf(db: { getExecutor(): { readonly plugins: readonly KyselyPlugin[] } }): number {
  const plugin = db.getExecutor().plugins.find((p): p is StakeScopePlugin => p instanceof StakeScopePlugin)
  const scope = plugin ? plugin.scope() : currentScope()
  if (!scope || !('stakeId' in scope)) throw new StakeScopeError('This needs one stake')
  return scope.stakeId
}
