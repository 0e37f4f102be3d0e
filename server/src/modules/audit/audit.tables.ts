import type { Generated } from 'kysely'
import { stakeTable, type RowsOf } from '../../db/table.ts'

export interface AuditLogTable {
  stake_id: Generated<number>
  id: Generated<number>
  at: string
  actor_id: number | null
  /** An AnonymousActor when nobody signed in acted but someone did (a booking link); else null. */
  anonymous_actor: string | null
  action: string
  target_type: string | null
  target_id: number | null
  /** A JSON object (text on both databases). */
  detail: string
}

/** The audit domain's tables (db/table.ts). */
export const auditTables = {
  audit_log: stakeTable<AuditLogTable>({ transfer: { id: true, refs: { actor_id: 'users' }, orderBy: ['id'] } }),
}
export type AuditTables = RowsOf<typeof auditTables>
