import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import * as Menu from '@radix-ui/react-dropdown-menu'
import type { Proposal } from '../../api/types'
import { useRemindAction } from '../../components/RemindButton'
import { OneTapVote } from './OneTapVote'
import type { CardActions } from './ProposalCard'
import type { OneTapVotes } from './useOneTapVotes'

/** A voter's Approve on a card: one tap, undoable, counting down — as everywhere. */
export function CardVote({ proposal: p, votes }: { proposal: Proposal; votes: OneTapVotes }) {
  return (
    <div className="pcard-actions" onPointerDown={(e) => e.stopPropagation()}>
      <OneTapVote
        votes={votes}
        id={p.id}
        name={`${p.fname} ${p.lname}`}
        stage={p.stage}
        small
        mine={p.my_vote}
        only="approve"
      />
    </div>
  )
}

/** The rest of a card's actions, in a menu at its top: Reject, Remind, and the moves forward and back. */
export function CardMenu({ proposal: p, actions }: { proposal: Proposal; actions: CardActions }) {
  const { t } = useTranslation('board')
  const name = `${p.fname} ${p.lname}`
  const remind = useRemindAction(p.id, p.stage)
  const reject = actions.canVote && actions.votes.shown[p.id] === undefined
  // A chosen move hands focus to the board (onto the moved card); Escape gives it back to the trigger.
  const moved = useRef(false)
  if (!reject && remind === null && actions.moves.length === 0) return null
  return (
    <span className="pcard-menu" onPointerDown={(e) => e.stopPropagation()}>
      <Menu.Root>
        <Menu.Trigger className="pcard-more" data-move-trigger={p.id}>
          <span aria-hidden="true">⋯</span>
          <span className="visually-hidden">{t('card.actionsFor', { name })}</span>
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content
            className="menu"
            align="end"
            sideOffset={4}
            onCloseAutoFocus={(e) => {
              if (moved.current) e.preventDefault()
              moved.current = false
            }}
          >
            {reject && (
              <Menu.Item className="menu-item" onSelect={() => actions.votes.tap(p.id, name, p.stage, false)}>
                {t('card.reject')}
              </Menu.Item>
            )}
            {remind && (
              <Menu.Item className="menu-item" disabled={remind.pending} onSelect={remind.run}>
                {remind.label}
              </Menu.Item>
            )}
            {actions.moves.map((m) => (
              <Menu.Item
                key={m.to}
                className="menu-item"
                onSelect={() => {
                  moved.current = true
                  actions.onMove(m)
                }}
              >
                {t(m.direction === 'advance' ? 'card.forwardTo' : 'card.backTo', { stage: t(`stages.${m.to}`) })}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
    </span>
  )
}
