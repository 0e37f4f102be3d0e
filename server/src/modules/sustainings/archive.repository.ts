import type { ProposalFilter } from '../proposals/proposals.repository.ts'
import { archiveMatching, visibleTo } from '../proposals/proposals.repository.ts'
import type { Viewer } from '../proposals/proposals.policy.ts'
import type { Executor } from '../../db/types.ts'

/** One row of GET /calling-kanban/proposals.csv (docs/api-reference.md §12). */
export interface ArchiveRow {
  id: number
  fname: string
  lname: string
  proposed_calling: string
  ward: string
  scope: string
  is_release: boolean
  /** call, release or ordination, and an ordination's office (docs/api-reference.md §18); '' for no office. */
  kind: string
  office: string
  stage: string
  submitted_at: string
  stage_changed_at: string
  interview_date: string
  /** Ward names joined by ';'. */
  presented_in: string
}

/**
 * Every matching proposal the viewer may see, newest first, in batches: the
 * matching ids first (one query, a few bytes a row), then each batch's
 * columns by primary key and the names of the wards it was presented in.
 * The CSV streams without holding every row, and no batch re-runs the
 * filter (keyset pages re-sorted the whole match for each batch when the
 * filter used another index).
 */
export async function* archiveBatches(
  db: Executor,
  viewer: Viewer,
  filter: ProposalFilter,
  batchSize = 1000,
): AsyncGenerator<ArchiveRow[]> {
  const ids = (
    await db
      .selectFrom('proposals as p')
      .select('p.id')
      .where(visibleTo(viewer))
      .where(archiveMatching(filter))
      .orderBy('p.id', 'desc')
      .execute()
  ).map((r) => r.id)
  for (let start = 0; start < ids.length; start += batchSize) {
    const batch = ids.slice(start, start + batchSize)
    const rows = await db
      .selectFrom('proposals as p')
      .innerJoin('wards as w', 'w.id', 'p.ward_id')
      .leftJoin('proposal_interviews as i', 'i.proposal_id', 'p.id')
      .select([
        'p.id',
        'p.fname',
        'p.lname',
        'p.proposed_calling',
        'w.name as ward',
        'p.scope',
        'p.is_release',
        'p.kind',
        'p.office',
        'p.stage',
        'p.submitted_at',
        'p.stage_changed_at',
        'i.interview_date',
      ])
      .where('p.id', 'in', batch)
      .orderBy('p.id', 'desc')
      .execute()
    const presented = await db
      .selectFrom('proposal_presentations as pp')
      .innerJoin('wards as w', 'w.id', 'pp.ward_id')
      .select(['pp.proposal_id', 'w.name'])
      .where('pp.proposal_id', 'in', batch)
      .orderBy('pp.proposal_id')
      .orderBy('w.name')
      .execute()
    const names = new Map<number, string[]>()
    for (const p of presented) names.set(p.proposal_id, [...(names.get(p.proposal_id) ?? []), p.name])
    yield rows.map((r) => ({
      ...r,
      is_release: Boolean(r.is_release),
      office: r.office ?? '',
      interview_date: r.interview_date ?? '',
      presented_in: (names.get(r.id) ?? []).join(';'),
    }))
  }
}
