import type { AuditTarget } from '../../events/types.ts'
import type { Executor } from '../../db/types.ts'

export const proposalTarget = (id: number): AuditTarget => ({ type: 'proposal', id })

/**
 * What a proposal's audit entries repeat of it, so an entry still reads
 * after the proposal is deleted: the person and the calling. Shown only to
 * readers of the log who see every proposal (audit.policy.ts, S9).
 */
export async function proposalFacts(db: Executor, id: number) {
  const row = await db
    .selectFrom('proposals')
    .select(['fname', 'lname', 'proposed_calling', 'ward_id', 'stage', 'kind', 'office'])
    .where('id', '=', id)
    .executeTakeFirst()
  // The kind (docs/api-reference.md §18) decides which stages are the presidency's (S14).
  return row && { ...factsOf(row), stage: row.stage, kind: row.kind, ...(row.office ? { office: row.office } : {}) }
}

export const factsOf = (row: { fname: string; lname: string; proposed_calling: string; ward_id: number }) => ({
  fname: row.fname,
  lname: row.lname,
  proposed_calling: row.proposed_calling,
  ward_id: row.ward_id,
})
