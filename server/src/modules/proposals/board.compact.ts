import type { BoardVote, CompactCard, Proposal } from '@stake/contract'

/** The voters' ids at a card's current stage, by proposal. */
export type CardVotes = Map<number, { approved_by: number[]; rejected_by: number[] }>

export function votesByCard(votes: readonly BoardVote[]): CardVotes {
  const byCard: CardVotes = new Map()
  for (const vote of votes) {
    let entry = byCard.get(vote.proposal_id)
    if (!entry) byCard.set(vote.proposal_id, (entry = { approved_by: [], rejected_by: [] }))
    ;(vote.approved ? entry.approved_by : entry.rejected_by).push(vote.voter_id)
  }
  return byCard
}

/**
 * The one mapper from a proposal's API shape to its compact card
 * (docs/api-reference.md §7, "Compact board"): a key at its default value is
 * left out, the votes are the voters' ids (their count is the tally) — or,
 * without `showVoters` (S9: the presidency's votes, for a caller outside it),
 * the tally alone.
 */
export function toCompactCard(p: Proposal, votes: CardVotes, showVoters = true): CompactCard {
  const card: CompactCard = {
    id: p.id,
    fname: p.fname,
    lname: p.lname,
    proposed_calling: p.proposed_calling,
    ward_id: p.ward_id,
    submitter: p.submitter,
    submitted_at: p.submitted_at,
    updated_at: p.updated_at,
    stage: p.stage,
    stage_changed_at: p.stage_changed_at,
  }
  if (p.spouse_name !== null) card.spouse_name = p.spouse_name
  if (p.is_release) card.is_release = true
  if (p.kind !== 'call') card.kind = p.kind
  if (p.office !== null) card.office = p.office
  const cast = votes.get(p.id)
  if (!showVoters) {
    if (cast) card.approvals = { approved: cast.approved_by.length, rejected: cast.rejected_by.length }
  } else {
    if (cast?.approved_by.length) card.approved_by = cast.approved_by
    if (cast?.rejected_by.length) card.rejected_by = cast.rejected_by
  }
  if (p.my_vote !== null) card.my_vote = p.my_vote
  if (p.interview) {
    const { id, interviewer_id, scheduled_for, interview_date } = p.interview
    card.interview = { id, interviewer_id, scheduled_for, interview_date }
  }
  if (p.scope === 'stake') card.scope = 'stake'
  if (p.releases.length) card.releases = p.releases
  if (p.calling_id !== null) card.calling_id = p.calling_id
  if (p.user_id !== null) card.user_id = p.user_id
  if (p.presented_in.length) card.presented_in = p.presented_in
  return card
}
