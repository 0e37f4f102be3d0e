import type { ClosedPageQuery, CompactBoard, CompactCard, PersonRef } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import type { Actor } from '../../actor.ts'
import { currentStakeSettings } from '../stakes/stakes.repository.ts'
import { toCompactCard, votesByCard } from './board.compact.ts'
import { loadViewer } from './proposals.access.ts'
import { canSeePresidencyVotes } from './proposals.policy.ts'
import * as repo from './proposals.repository.ts'

/** The board shows what closed in the last 30 days (docs/api-reference.md §7). */
const CLOSED_WINDOW_MS = 30 * 24 * 3600 * 1000

/**
 * The compact board (docs/api-reference.md §7, "Compact board"): what a
 * person looks at — every open card, and the closed column as counts until
 * it is opened, then a page at a time. Same visibility rule (S9) as GET /board.
 */
export class BoardService {
  constructor(private readonly ctx: AppContext) {}

  private since(): string {
    return new Date(this.ctx.clock.now().getTime() - CLOSED_WINDOW_MS).toISOString()
  }

  /**
   * Six queries whatever the number of proposals: the caller's seats, the
   * open cards with their interviewers' names, the votes at their current
   * stage (the cards' tallies and the caller's own vote), the closed counts,
   * the voting seats' holders and the stake's settings.
   */
  async compact(actor: Actor): Promise<CompactBoard> {
    const viewer = await loadViewer(this.ctx, actor)
    const [{ cards: rows, interviewers }, votes, closed, holders, stake] = await Promise.all([
      repo.openBoardProposals(this.ctx.db, viewer),
      repo.boardVotes(this.ctx.db, viewer),
      repo.closedCounts(this.ctx.db, viewer, this.since()),
      repo.votingSeatHolders(this.ctx.db),
      currentStakeSettings(this.ctx.db),
    ])
    const byCard = votesByCard(votes)
    const presidencyVotes = canSeePresidencyVotes(viewer)
    const people = new Map<number, PersonRef>()
    const voters = (stage: 'sp_approval' | 'hc_approval') => {
      const ids = new Set<number>()
      for (const h of holders) {
        if ((stage === 'hc_approval') !== (h.key === 'high_councilor') || ids.has(h.id)) continue
        ids.add(h.id)
        people.set(h.id, { id: h.id, fname: h.fname, lname: h.lname })
      }
      return [...ids]
    }
    return {
      // The caller's own vote is among the card's votes at its current stage.
      cards: rows.map((p) => {
        const cast = byCard.get(p.id)
        const mine = cast?.approved_by.includes(actor.id) ? true : cast?.rejected_by.includes(actor.id) ? false : null
        // S9: who voted at sp_approval is the presidency's (and managers') to see; the tally is everyone's.
        const showVoters = p.stage !== 'sp_approval' || presidencyVotes
        return toCompactCard({ ...p, my_vote: mine }, byCard, showVoters)
      }),
      closed,
      voting: {
        sp_approval: { required: stake.sp_approvals_required, voters: voters('sp_approval') },
        hc_approval: { required: stake.hc_approvals_required, voters: voters('hc_approval') },
      },
      // The voting seats' holders first, then the interviewers not among them.
      people: [...people.values(), ...interviewers.filter((p) => !people.has(p.id))],
    }
  }

  /** A page of the closed column, most recent first, with the column's total. */
  async closedPage(actor: Actor, query: ClosedPageQuery): Promise<{ rows: CompactCard[]; total: number }> {
    const viewer = await loadViewer(this.ctx, actor)
    const since = this.since()
    const [rows, counts] = await Promise.all([
      repo.closedPageViews(this.ctx.db, viewer, since, query.limit ?? 50, query.offset ?? 0),
      repo.closedCounts(this.ctx.db, viewer, since),
    ])
    // Closed proposals have no votes at their stage: no tally to carry.
    return { rows: rows.map((p) => toCompactCard(p, new Map())), total: counts.done + counts.declined }
  }
}
