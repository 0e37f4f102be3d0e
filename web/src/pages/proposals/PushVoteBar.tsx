import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { isVotingStage, type Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { canVote } from '../../auth/roles'
import { claimPushVote } from '../../pwa/pushVote'
import { OneTapVote } from '../board/OneTapVote'
import { useOneTapVotes } from '../board/useOneTapVotes'

/**
 * The proposal's page opened from a push notification (`?from=push`, issue
 * 30): at the top, the vote owed, one tap each way with the undo of "Needs
 * me". When the notification's own Approve or Reject button was tapped, the
 * service worker hands that choice over (pwa/pushVote.ts) and it starts at
 * once, undoable. Nothing shows when no vote is owed.
 */
export function PushVoteBar({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('board')
  const [params] = useSearchParams()
  const me = useMe()
  const votes = useOneTapVotes()
  const fromPush = params.get('from') === 'push'
  const owed = isVotingStage(p.stage) && canVote(me, p) && p.my_vote === null
  const name = `${p.fname} ${p.lname}`
  const claimed = useRef(false)
  const { tap } = votes

  useEffect(() => {
    if (!fromPush || !owed || claimed.current) return
    claimed.current = true
    void claimPushVote(p.id).then((approved) => {
      if (approved !== null) tap(p.id, name, p.stage, approved)
    })
  }, [fromPush, owed, p.id, p.stage, name, tap])

  const waiting = votes.shown[p.id]
  if (!fromPush || (!owed && waiting === undefined && votes.said === '')) return null
  return (
    <section className="card push-vote" aria-labelledby="push-vote-h" data-testid="push-vote">
      <h2 id="push-vote-h">{t('needsMe.quick.pushTitle')}</h2>
      <p role="status" className="small" data-testid="push-vote-status">
        {votes.said}
      </p>
      {(owed || waiting !== undefined) && (
        <div className="button-row">
          <OneTapVote votes={votes} id={p.id} name={name} stage={p.stage} />
        </div>
      )}
    </section>
  )
}
