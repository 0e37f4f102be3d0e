import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { moveTarget, useMoveProposal, type MoveVars } from '../../api/proposals'
import { isVotingStage, type Board, type Proposal, type Stage } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { columnOf, type Column, type FocusTarget } from './columns'
import type { PendingMove } from './MoveConfirm'
import type { CardMove, CardVoting } from './ProposalCard'
import { useFocusCard } from './useFocusCard'
import { useBoardVotes } from './useBoardVotes'

type Via = FocusTarget['on']

/**
 * The board's votes and moves: the notices and the live-region text they
 * leave, the question before a forward move that leaves votes missing, and
 * where focus goes once a card has moved (it stays on the moved card,
 * wherever it now is). Votes are one tap with an undo, the same on a card
 * and in "Needs me".
 */
export function useBoardMoves({
  board,
  phone,
  tab,
  setTab,
}: {
  board: Board | undefined
  phone: boolean
  tab: Column
  setTab(column: Column): void
}) {
  const { t } = useTranslation('board')
  const notify = useNotify()
  const [announcement, setAnnouncement] = useState('')
  const [pendingMove, setPendingMove] = useState<(PendingMove & { via: Via }) | null>(null)
  const setFocusTarget = useFocusCard(board, tab)
  const stageName = useCallback((s: Stage) => t(`stages.${s}`), [t])

  /** The stage's required approvals and who has not voted yet on this card. */
  const votingOf = useCallback(
    (p: Proposal): CardVoting | undefined => {
      if (!board || (p.stage !== 'sp_approval' && p.stage !== 'hc_approval')) return undefined
      const stage = board.voting[p.stage]
      const voted = new Set(board.votes.filter((v) => v.proposal_id === p.id).map((v) => v.voter_id))
      // Votes the caller may not see (the presidency's) count in the tally but name nobody: who is still to vote is unknown.
      const unnamed = p.approvals.approved + p.approvals.rejected > voted.size
      return { required: stage.required, pending: unnamed ? [] : stage.voters.filter((v) => !voted.has(v.id)) }
    },
    [board],
  )

  // The notice stays a while, then goes (the live region has said it by then).
  useEffect(() => {
    if (!announcement) return
    const timer = setTimeout(() => setAnnouncement(''), 10_000)
    return () => clearTimeout(timer)
  }, [announcement])

  const votes = useBoardVotes(board, setAnnouncement)

  const move = useMoveProposal<MoveVars & { via: Via | null }>({
    onMove: ({ proposal: p, via }, to) => {
      const column = columnOf(to)
      if (!via) return
      if (phone) setTab(column)
      setFocusTarget({ id: p.id, stage: column, on: via === 'handle' && column === 'done' ? 'card' : via })
    },
    onSuccess: (_d, vars) => {
      const p = vars.proposal
      const text = t('notice.moved', { name: `${p.fname} ${p.lname}`, stage: stageName(moveTarget(vars)!) })
      notify(text, 'success')
      setAnnouncement(text)
    },
    onError: (err) =>
      notify(
        err instanceof ApiError && err.status === 409 && err.code === 'stale_stage'
          ? t('notice.conflict')
          : err.message,
        'error',
      ),
  })

  return {
    votingOf,
    votes,
    announcement,
    pendingMove,
    stageName,
    /** Focus (and scroll to) a card once it is on screen. */
    focusCard: setFocusTarget,
    /** Moves a card, first asking when a forward move leaves votes missing. */
    requestMove(p: Proposal, m: CardMove, via: Via | null) {
      const voting = votingOf(p)
      const missing =
        m.direction === 'advance' &&
        isVotingStage(p.stage) &&
        voting &&
        (voting.pending.length > 0 || p.approvals.approved < voting.required || p.approvals.rejected > 0)
      if (missing && voting) {
        setPendingMove({ proposal: p, to: m.to, voting, via: via ?? 'card' })
        return
      }
      move.mutate({ proposal: p, direction: m.direction, via })
    },
    confirmMove() {
      if (!pendingMove) return
      setPendingMove(null)
      move.mutate({ proposal: pendingMove.proposal, direction: 'advance', via: pendingMove.via })
    },
    cancelMove() {
      // Focus goes back to where the move was asked for, on the card that stayed.
      if (pendingMove) {
        const p = pendingMove.proposal
        setFocusTarget({ id: p.id, stage: columnOf(p.stage), on: pendingMove.via })
      }
      setPendingMove(null)
    },
  }
}
