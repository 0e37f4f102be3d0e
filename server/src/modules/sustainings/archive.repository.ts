import type { ProposalFilter } from '../proposals/proposals.repository.ts'
import { archiveMatching, visibleTo } from '../proposals/proposals.repository.ts'
import type { Viewer } from '../proposals/proposals.policy.ts'
import type { Executor } from '../../db/types.ts'

/** One row of GET /calling-kanban/proposals.csv (contract §12). */
export interface ArchiveRow {
  id: number
  fname: string
  lname: string
  proposed_calling: string
  ward: string
  scope: string
  is_release: boolean
  stage: string
  submitted_at: string
  stage_changed_at: string
  interview_date: string
  /** Ward names joined by ';'. */
  presented_in: string
}

/**
 * Every matching proposal the viewer may see, newest first, read in batches
 * by keyset on the id: the CSV streams without holding the whole result (or
 * an OFFSET scan) in memory. Two queries per batch: the rows, then the names
 * of the wards they were presented in.
 */
export async function* archiveRows(
  db: Executor,
  viewer: Viewer,
  filter: ProposalFilter,
  batchSize = 1000,
): AsyncGenerator<ArchiveRow> {
  let before: number | null = null
  for (;;) {
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
        'p.stage',
        'p.submitted_at',
        'p.stage_changed_at',
        'i.interview_date',
      ])
      .where(visibleTo(viewer))
      .where(archiveMatching(filter))
      .$if(before !== null, (q) => q.where('p.id', '<', before!))
      .orderBy('p.id', 'desc')
      .limit(batchSize)
      .execute()
    if (rows.length === 0) return
    const presented = await db
      .selectFrom('proposal_presentations as pp')
      .innerJoin('wards as w', 'w.id', 'pp.ward_id')
      .select(['pp.proposal_id', 'w.name'])
      .where(
        'pp.proposal_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('pp.proposal_id')
      .orderBy('w.name')
      .execute()
    const names = new Map<number, string[]>()
    for (const p of presented) names.set(p.proposal_id, [...(names.get(p.proposal_id) ?? []), p.name])
    for (const r of rows) {
      yield {
        ...r,
        is_release: Boolean(r.is_release),
        interview_date: r.interview_date ?? '',
        presented_in: (names.get(r.id) ?? []).join(';'),
      }
    }
    if (rows.length < batchSize) return
    before = rows[rows.length - 1]!.id
  }
}
