import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { buildApp } from '../app.ts'
import type { FastifyTypebox } from '../http.ts'
import type { TestApp } from './harness.ts'

/** Counts the statements a Kysely instance executes (every result passes through here). */
export class QueryCounter implements KyselyPlugin {
  count = 0
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count++
    return args.result
  }
}

/**
 * A second app on the test's database, seen through a Kysely instance that
 * counts, for "the same number of queries for 10 and for 500 rows" tests.
 * The caller closes `app`.
 */
export async function countingApp(t: TestApp): Promise<{ app: FastifyTypebox; counter: QueryCounter }> {
  const counter = new QueryCounter()
  const app = await buildApp({
    config: t.config,
    db: t.database.db.withPlugin(counter),
    dialect: t.database.dialect,
    clock: t.clock,
  })
  await app.ready()
  return { app, counter }
}
