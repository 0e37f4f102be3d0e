import crypto from 'node:crypto'
import type pg from 'pg'

/**
 * Named prepared statements on PostgreSQL. node-postgres sends a statement
 * without a name unless told otherwise, and PostgreSQL then parses, rewrites
 * (row-level security adds its policies there) and plans it on every
 * execution. A named statement is parsed once per connection and, after five
 * executions, runs on a cached generic plan when PostgreSQL finds it as good
 * as a custom one (docs/performance.md, "Many stakes").
 *
 * The name is a digest of the SQL text, so the same text gets the same name
 * on every connection and two texts never share one. Each connection holds
 * at most `capacity` statements, the least recently used DEALLOCATEd first.
 *
 * Row-level security reads the stake from `current_setting('app.stake_id')`,
 * a stable function evaluated at each execution, never at planning: a reused
 * plan sees the setting of the request running it (the isolation tests hold
 * this).
 */

/**
 * Named statements each connection keeps; 0 sends every statement unnamed.
 * The app runs about a hundred distinct statements in a day's use (docs/performance.md).
 */
export const DEFAULT_PREPARED_STATEMENTS = 200

/** Data statements only, single ones: utility statements (transactions, DDL, VACUUM) are not worth a name. */
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i

/** Leaves a statement unnamed when it may hold several (a `;`), which the extended protocol refuses. */
export function statementName(text: string): string | null {
  if (!NAMEABLE.test(text) || text.includes(';')) return null
  return `s_${crypto.createHash('sha256').update(text).digest('hex').slice(0, 32)}`
}

/**
 * Errors after which a named statement must be prepared again: it was
 * dropped on the server (26000), or a schema change altered the columns it
 * returns (0A000, "cached plan must not change result type").
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null
  return e?.code === '26000' || (e?.code === '0A000' && /cached plan/.test(e.message ?? ''))
}

/** pg's record of the statements a connection has parsed (`Connection.parsedStatements`). */
interface ParsedStatements {
  connection: { parsedStatements: Record<string, string> }
}

/** The named statements of one connection, least recently used first. */
export class PreparedStatements {
  private readonly names = new Map<string, true>()

  constructor(
    private readonly client: pg.PoolClient,
    private readonly capacity: number,
  ) {}

  /**
   * The name to run `text` under, after making room for it; null when the
   * text stays unnamed. Making room runs DEALLOCATE on this connection.
   */
  async nameFor(text: string): Promise<string | null> {
    if (this.capacity <= 0) return null
    const name = statementName(text)
    if (name === null) return null
    if (this.names.delete(name)) {
      this.names.set(name, true)
      return name
    }
    while (this.names.size >= this.capacity) {
      const [oldest] = this.names.keys()
      this.names.delete(oldest!)
      await this.drop(oldest!)
    }
    this.names.set(name, true)
    return name
  }

  /** Stale statements found inside a transaction, dropped once it has ended. */
  private readonly stale = new Set<string>()

  /** Forgets `name` here, in pg's client and on the server, so that its next use prepares it again. */
  async forget(name: string): Promise<void> {
    this.names.delete(name)
    await this.drop(name)
  }

  /** {@link forget}, for the end of the current transaction. */
  forgetLater(name: string): void {
    this.names.delete(name)
    this.stale.add(name)
  }

  async dropStale(): Promise<void> {
    for (const name of this.stale) {
      this.stale.delete(name)
      await this.drop(name)
    }
  }

  private async drop(name: string) {
    const parsed = (this.client as unknown as ParsedStatements).connection.parsedStatements
    if (parsed[name] === undefined) return
    // Not an error if it is gone already (a stale statement); pg forgets it only once the server has.
    await this.client.query(`DEALLOCATE ${name}`).catch((error: unknown) => {
      if ((error as { code?: string }).code !== '26000') throw error
    })
    delete parsed[name]
  }
}
