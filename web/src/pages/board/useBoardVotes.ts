import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { Board, Proposal } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { useOneTapVotes, type OnSent } from './useOneTapVotes'

/**
 * The board's one-tap votes, the same on a card and in "Needs me": once a
 * vote is sent, a notice says it was recorded, and the board's live region
 * says when it moved the proposal on (and after how many approvals).
 */
export function useBoardVotes(board: Board | undefined, announce: (text: string) => void) {
  const { t } = useTranslation('board')
  const notify = useNotify()
  // Each tapped card as it was when tapped: its approvals then tell how many moved it on.
  const tapped = useRef(new Map<number, Proposal>())
  const onVoteSent: OnSent = ({ id, name, approved, from, stage }) => {
    notify(approved ? t('notice.approved') : t('notice.rejected'), 'success')
    const before = tapped.current.get(id)
    tapped.current.delete(id)
    if (stage && stage !== from && before) {
      const count = before.approvals.approved + (before.my_vote === true ? 0 : 1)
      const text = t(`stages.${stage}`)
      announce(
        count === 1
          ? t('notice.autoAdvancedOne', { name, stage: text })
          : t('notice.autoAdvanced', { name, stage: text, count }),
      )
    }
  }
  const oneTap = useOneTapVotes(onVoteSent)
  const votes: typeof oneTap = {
    ...oneTap,
    tap(id, name, from, approved) {
      const card = board?.stages[from as keyof Board['stages']]?.find((p) => p.id === id)
      if (card) tapped.current.set(id, card)
      oneTap.tap(id, name, from, approved)
    },
  }
  return votes
}
