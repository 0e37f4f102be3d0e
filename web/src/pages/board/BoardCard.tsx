import type { Proposal } from '../../api/types'
import { useWards, wardName } from '../../api/wards'
import { useMe } from '../../auth/AuthProvider'
import { can, canVote } from '../../auth/roles'
import { movesOf } from './columns'
import { DraggableCard } from './dnd'
import { ProposalCard, type CardMove, type CardVoting } from './ProposalCard'
import type { OneTapVotes } from './useOneTapVotes'

/** A card in an open stage: draggable by a manager on a wide screen, with the caller's vote and moves. */
export function BoardCard({
  proposal: p,
  voting,
  votes,
  draggable,
  onMove,
}: {
  proposal: Proposal
  voting: CardVoting | undefined
  votes: OneTapVotes
  draggable: boolean
  onMove(move: CardMove): void
}) {
  const me = useMe()
  const wards = useWards()
  return (
    <DraggableCard id={p.id} name={`${p.fname} ${p.lname}`} disabled={!draggable}>
      {(handle) => (
        <ProposalCard
          proposal={p}
          wardLabel={wardName(wards.data, p.ward_id)}
          voting={voting}
          handle={handle}
          actions={{
            canVote: canVote(me, p),
            votes,
            moves: can(me, 'proposals.manage') ? movesOf(p) : [],
            onMove,
          }}
        />
      )}
    </DraggableCard>
  )
}
