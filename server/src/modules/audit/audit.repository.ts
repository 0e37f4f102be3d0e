import type { AnonymousActor, AuditAction, AuditEntry } from '@stake/contract'
import type { ExpressionBuilder, Selectable } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { Executor } from '../../db/types.ts'
import type { AuditDetail, AuditTarget, Fact } from '../../events/types.ts'
import type { AuditLogTable } from './audit.tables.ts'

/** Who acted and when: `by` is null for what nobody signed in did (a failed sign-in). */
export interface AuditBy {
  by: number | null
  at: string
  /** With `by` null: who acted without an account (a booking link). */
  anonymous?: AnonymousActor
}

/** Keys that would carry a credential. The log holds plain facts only (docs/api-reference.md §13: never a secret). */
const SECRET_KEY = /pass|hash|token|secret|cookie|salt/i

function assertNoSecretKeys(value: Fact, path: string): void {
  if (value === null || typeof value !== 'object') return
  for (const [key, inner] of Object.entries(value)) {
    if (!Array.isArray(value) && SECRET_KEY.test(key)) {
      throw new Error(`audit detail must not carry a secret: ${path}${key}`)
    }
    assertNoSecretKeys(inner, `${path}${key}.`)
  }
}

/**
 * Writes one audit entry. Changes call it with their own transaction, so the
 * entry commits or rolls back with the change (a refused or failed change
 * leaves none); security events outside any change call it with the database.
 */
export async function audit(
  db: Executor,
  who: AuditBy,
  action: AuditAction,
  target: AuditTarget | null,
  detail: AuditDetail = {},
): Promise<void> {
  assertNoSecretKeys(detail, '')
  await db
    .insertInto('audit_log')
    .values({
      at: who.at,
      actor_id: who.by,
      anonymous_actor: who.by === null ? (who.anonymous ?? null) : null,
      action,
      target_type: target?.type ?? null,
      target_id: target?.id ?? null,
      detail: JSON.stringify(detail),
    })
    .execute()
}

export interface AuditFilter {
  actorId?: number
  /** An exact action, or a prefix ending in '.' */
  action?: string
  /** Inclusive bounds, ISO text. */
  from?: string
  to?: string
  /** S14: leave out every entry about a proposal the presidency's stage keeps private (readers without proposals.manage). */
  withoutPresidencyStage?: boolean
}

/** How a proposal's stage appears in an entry's JSON detail (JSON.stringify writes no spaces). */
const detailStage = (stage: string) => `%"stage":"${stage}"%`
const detailFrom = (stage: string) => `%"from":"${stage}"%`
const ORDINATION = `%"kind":"ordination"%`

/** The byte-wise successor of a prefix: `user.` → `user/` (the column compares byte-wise, see the migration). */
const prefixEnd = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)

function filtered(db: Executor, filter: AuditFilter) {
  let query = db.selectFrom('audit_log')
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId)
  if (filter.action?.endsWith('.')) {
    query = query.where('action', '>=', filter.action).where('action', '<', prefixEnd(filter.action))
  } else if (filter.action !== undefined) {
    query = query.where('action', '=', filter.action)
  }
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from)
  if (filter.to !== undefined) query = query.where('at', '<=', filter.to)
  if (filter.withoutPresidencyStage) query = query.where((eb) => eb.not(presidencyStage(eb)))
  return query
}

/**
 * S9 in the audit log (S14), in the query itself so that pages and the total
 * agree: an entry about a proposal that is at `sp_approval` or was declined
 * there (`coalesce(declined_from, stage)`, the twin of proposals.policy.ts
 * `canSee`); a vote cast at `sp_approval`, also after the proposal moved on
 * (S9 lists those votes to the presidency only); and, for a deleted proposal,
 * every entry when its deletion says it was at `sp_approval` or its decline
 * says it was declined from there (the entries outlive the proposal's row).
 * An ordination's interview counts as the presidency's stage too (its
 * high council vote comes after it: docs/api-reference.md §18).
 */
function presidencyStage(eb: ExpressionBuilder<DB, 'audit_log'>) {
  const target = eb.ref('audit_log.target_id')
  return eb.and([
    eb('audit_log.target_type', '=', 'proposal'),
    eb.or([
      eb.exists(
        eb
          .selectFrom('proposals as p')
          .select('p.id')
          .where('p.id', '=', target)
          .where((inner) =>
            inner.or([
              inner(inner.fn.coalesce('p.declined_from', 'p.stage'), '=', 'sp_approval'),
              // docs/api-reference.md §18: an ordination's interview comes before the high council's vote.
              inner.and([
                inner('p.kind', '=', 'ordination'),
                inner(inner.fn.coalesce('p.declined_from', 'p.stage'), '=', 'interview'),
              ]),
            ]),
          ),
      ),
      eb.and([
        eb('audit_log.action', '=', 'proposal.vote'),
        eb('audit_log.detail', 'like', detailStage('sp_approval')),
      ]),
      eb.and([
        eb.not(eb.exists(eb.selectFrom('proposals as p').select('p.id').where('p.id', '=', target))),
        eb.exists(
          eb
            .selectFrom('audit_log as d')
            .select('d.id')
            .where('d.target_type', '=', 'proposal')
            .where('d.target_id', '=', target)
            .where((inner) =>
              inner.or([
                inner.and([
                  inner('d.action', '=', 'proposal.delete'),
                  inner('d.detail', 'like', detailStage('sp_approval')),
                ]),
                inner.and([
                  inner('d.action', '=', 'proposal.decline'),
                  inner('d.detail', 'like', detailFrom('sp_approval')),
                ]),
                inner.and([
                  inner('d.action', '=', 'proposal.delete'),
                  inner('d.detail', 'like', ORDINATION),
                  inner('d.detail', 'like', detailStage('interview')),
                ]),
                inner.and([
                  inner('d.action', '=', 'proposal.decline'),
                  inner('d.detail', 'like', ORDINATION),
                  inner('d.detail', 'like', detailFrom('interview')),
                ]),
              ]),
            ),
        ),
      ]),
    ]),
  ])
}

/** A page newest first (ties in time by id), and the total. */
export async function listAudit(db: Executor, filter: AuditFilter, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, filter).selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.n) }
}

export function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor_id: row.actor_id,
    anonymous_actor: (row.anonymous_actor ?? null) as AuditEntry['anonymous_actor'],
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    detail: JSON.parse(row.detail) as AuditEntry['detail'],
  }
}

/** Retention (AUDIT_RETENTION_DAYS): entries older than `before` go; one range of the (at, id) index. */
export async function purgeAudit(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
