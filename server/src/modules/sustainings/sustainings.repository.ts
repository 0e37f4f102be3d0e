import type { Executor } from '../../db/types.ts'
import { isUniqueViolation } from '../../db/database.ts'
import type { Viewer } from '../proposals/proposals.policy.ts'
import { visibleTo } from '../proposals/proposals.repository.ts'

/** Presentations for sustaining (docs/api-reference.md §12). */

/**
 * Records that a proposal was presented in a ward. The primary key
 * (proposal_id, ward_id) keeps one row per ward: false when the ward has
 * presented it already.
 */
export async function insertPresentation(
  db: Executor,
  row: { proposal_id: number; ward_id: number; at: string; by_user_id: number; created_at: string },
): Promise<boolean> {
  try {
    await db.insertInto('proposal_presentations').values(row).execute()
    return true
  } catch (error) {
    if (isUniqueViolation(error)) return false
    throw error
  }
}

/** How many of the wards that exist now have not presented the proposal (docs/api-reference.md §12: "every ward"). */
export async function wardsNotPresented(db: Executor, proposalId: number): Promise<number> {
  const row = await db
    .selectFrom('wards as w')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('proposal_presentations as pp')
            .select('pp.ward_id')
            .whereRef('pp.ward_id', '=', 'w.id')
            .where('pp.proposal_id', '=', proposalId),
        ),
      ),
    )
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * The proposals a ward presents now (docs/api-reference.md §12): its own at `sustain`, and the
 * stake-scope ones at `sustain` not yet presented there; only those the
 * viewer may see.
 */
export async function sustainingIds(db: Executor, viewer: Viewer, wardId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('proposals as p')
    .select('p.id')
    .where('p.stage', '=', 'sustain')
    .where((eb) =>
      eb.or([
        eb.and([eb('p.scope', '=', 'ward'), eb('p.ward_id', '=', wardId)]),
        eb.and([
          eb('p.scope', '=', 'stake'),
          eb.not(
            eb.exists(
              eb
                .selectFrom('proposal_presentations as pp')
                .select('pp.ward_id')
                .whereRef('pp.proposal_id', '=', 'p.id')
                .where('pp.ward_id', '=', wardId),
            ),
          ),
        ]),
      ]),
    )
    .where(visibleTo(viewer))
    .execute()
  return rows.map((r) => r.id)
}
