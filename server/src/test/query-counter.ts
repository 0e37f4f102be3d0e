import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { after, before } from 'node:test'
import { buildApp } from '../app.ts'
import type { FastifyTypebox } from '../http.ts'
import type { TestApp } from './harness.ts'
import { injectAs } from './factories.ts'

/** Counts the statements a Kysely instance executes (every result passes through here), and keeps what they were. */
export class QueryCounter implements KyselyPlugin {
  count = 0
  /** The statements asked for since the test last emptied the list (compile one with `db.getExecutor().compileQuery`). */
  statements: RootOperationNode[] = []
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push(args.node)
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

/**
 * A {@link countingApp} for a describe block (made before its tests, closed
 * after): `GET url` as the token's user, with how many statements it took.
 */
export function useCountedGet(t: TestApp) {
  let counting: Awaited<ReturnType<typeof countingApp>> | undefined
  before(async () => {
    counting = await countingApp(t)
  })
  after(async () => {
    await counting?.app.close()
  })
  return async (token: string, url: string) => {
    const { app, counter } = counting!
    counter.count = 0
    const res = await injectAs({ ...t, app }, token)('GET', url)
    return { res, queries: counter.count }
  }
}
