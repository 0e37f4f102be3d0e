import pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { DatabaseUnavailable } from './unavailable.ts'
import { scopeSetting, type StakeScope } from './stake-scope.ts'

/** The `app.stake_id` each connection was last given (stake-scope.ts): set again only when it changes. */
const connectionScope = new WeakMap<pg.PoolClient, string>()

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
              await client.query(`SELECT set_config('app.stake_id', $1, false)`, [setting])
              connectionScope.set(client, setting)
            }
            const result = await client.query(sql, parameters as unknown[])
            // A rolled-back transaction also takes back a setting made inside it.
            if (sql === 'rollback') connectionScope.delete(client)
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
}
