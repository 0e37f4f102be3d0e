import pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { DatabaseUnavailable } from './unavailable.ts'
import { scopeSetting, type StakeScope } from './stake-scope.ts'
import { DEFAULT_PREPARED_STATEMENTS, PreparedStatements, isStalePreparedStatement } from './pg-statements.ts'

/** The `app.stake_id` each connection was last given (stake-scope.ts): set again only when it changes. */
const connectionScope = new WeakMap<pg.PoolClient, string>()
/** Each connection's named statements (pg-statements.ts). */
const connectionStatements = new WeakMap<pg.PoolClient, PreparedStatements>()
/** Whether each connection is inside a transaction: a failed statement there cannot be retried. */
const inTransaction = new WeakMap<pg.PoolClient, boolean>()

export interface PgTimeouts {
  /** Waiting for a connection, a free one from the pool or a new one. */
  connectTimeoutMs: number
  /** Server-side `statement_timeout`; the client gives up 1 s later (a silent server never cancels). */
  statementTimeoutMs: number
}

/** Where connection-level failures are reported (they may come while no query is running). */
export type ErrorSink = (error: Error, where: string) => void

/**
 * A pg pool for Kysely that survives the database going away:
 * - every client gets an `error` listener for its whole life (pg-pool drops
 *   its own while a client is checked out, and an `error` event without a
 *   listener ends the process);
 * - a failure that is not an SQL error (refused, reset, terminated, timed out)
 *   becomes `DatabaseUnavailable`, and the client is destroyed on release
 *   instead of going back to the pool with a stalled or dead socket;
 * - ROLLBACK on such a client is skipped: the server ends the transaction
 *   when the connection closes, and the real error is the one to report.
 */
export function guardedPool(
  url: string,
  poolSize: number,
  timeouts: PgTimeouts,
  onError: ErrorSink,
  fallbackScope: StakeScope | null = null,
  preparedStatements = DEFAULT_PREPARED_STATEMENTS,
): { pool: PostgresPool; raw: pg.Pool } {
  const raw = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    lock_timeout: timeouts.statementTimeoutMs,
    idle_in_transaction_session_timeout: timeouts.statementTimeoutMs * 2,
    query_timeout: timeouts.statementTimeoutMs + 1000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  })
  raw.on('error', (error) => onError(error, 'idle client'))
  raw.on('connect', (client) => client.on('error', (error) => onError(error, 'client')))

  const pool: PostgresPool = {
    async connect() {
      let client: pg.PoolClient
      try {
        client = await raw.connect()
      } catch (error) {
        throw new DatabaseUnavailable(error)
      }
      let broken: DatabaseUnavailable | undefined
      const guarded = {
        async query(sql: string, parameters: readonly unknown[]) {
          if (broken && sql === 'rollback') return { command: 'ROLLBACK', rowCount: 0, rows: [] }
          try {
            // Row-level security reads the stake from this setting (stake-scope.ts): it
            // follows the async context of the code running the statement.
            // Not before the end of a transaction: an aborted one refuses every other statement.
            const setting = scopeSetting(fallbackScope)
            if (connectionScope.get(client) !== setting && sql !== 'rollback' && sql !== 'commit') {
              connectionScope.delete(client)
              await run(client, `SELECT set_config('app.stake_id', $1, false)`, [setting])
              connectionScope.set(client, setting)
            }
            trackTransaction(client, sql)
            const result = await run(client, sql, parameters as unknown[])
            // A rolled-back transaction also takes back a setting made inside it.
            if (sql === 'rollback') connectionScope.delete(client)
            if (sql === 'rollback' || sql === 'commit') await connectionStatements.get(client)?.dropStale()
            return result
          } catch (error) {
            // SQL errors keep their SQLSTATE; type errors are ours (bad parameters), not the database's.
            if (error instanceof pg.DatabaseError || error instanceof TypeError || error instanceof RangeError)
              throw error
            broken ??= new DatabaseUnavailable(error)
            throw broken
          }
        },
        release: () => client.release(broken),
      }
      return guarded as unknown as PostgresPoolClient
    },
    end: () => raw.end(),
  }
  return { pool, raw }

  /** Runs a statement, named when it is one to keep; a stale one is prepared again outside a transaction. */
  async function run(client: pg.PoolClient, text: string, values: unknown[]) {
    let statements = connectionStatements.get(client)
    if (!statements) connectionStatements.set(client, (statements = new PreparedStatements(client, preparedStatements)))
    const name = await statements.nameFor(text)
    if (name === null) return client.query(text, values)
    try {
      return await client.query({ name, text, values })
    } catch (error) {
      if (!isStalePreparedStatement(error)) throw error
      // An aborted transaction refuses DEALLOCATE too: dropped at its end, prepared again on next use.
      if (inTransaction.get(client)) {
        statements.forgetLater(name)
        throw error
      }
      await statements.forget(name)
      return client.query({ name, text, values })
    }
  }
}

function trackTransaction(client: pg.PoolClient, sql: string) {
  if (sql === 'begin' || sql.startsWith('start transaction')) inTransaction.set(client, true)
  else if (sql === 'commit' || sql === 'rollback') inTransaction.delete(client)
}
