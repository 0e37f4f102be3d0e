import { useId, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useActions } from '../../api/actions'
import { wardName } from '../../api/wards'
import type { ActionItem, Stage, Ward } from '../../api/types'
import { ROUTES } from '../../routes'
import { OneTapVote } from './OneTapVote'
import type { OneTapVotes } from './useOneTapVotes'
import { FoldToggle } from './FoldToggle'
import { useFold } from './useFold'

/** Entries shown per group before "Show all": the stages stay near the top of the page. */
const SHOWN = 5

const GROUPS = [
  { key: 'votes', kinds: ['vote'] },
  { key: 'interviews', kinds: ['interview'] },
  { key: 'steps', kinds: ['assign', 'step'] },
] as const

/**
 * "Needs me": what awaits the signed-in user (GET /actions, docs/api-reference.md §11) —
 * the votes they owe, their interviews, and the steps they may take — first
 * on the board, in full the first time, then folded into a one-line strip
 * (opened by its toggle or by the tab bar's "Needs me"). Each entry names its
 * proposal and can bring its card into view.
 */
export function NeedsMe({
  wards,
  onShow,
  votes,
  userId,
}: {
  wards: Ward[] | undefined
  onShow(item: { id: number; stage: Stage }): void
  votes: OneTapVotes
  userId: number
}) {
  const { t } = useTranslation('board')
  const actions = useActions()
  const items = actions.data?.items ?? []
  const [expanded, setExpanded] = useState<string[]>([])
  const [open, setOpen] = useFold(`stake.board.needsMeSeen.${userId}`, useLocation().hash === '#needs-me')
  const bodyId = useId()
  return (
    <section
      id="needs-me"
      className={`needs-me-view ${open ? '' : 'is-folded'}`}
      aria-labelledby="needs-me-title"
      data-testid="needs-me-view"
    >
      <div className="fold-head">
        <h2 id="needs-me-title">
          {t('needsMe.title')} <span className="count">{actions.data ? items.length : '…'}</span>
        </h2>
        {items.length > 0 && <FoldToggle open={open} onToggle={setOpen} controls={bodyId} what={t('needsMe.title')} />}
        {actions.data && items.length === 0 && <p className="muted small">{t('needsMe.nothing')}</p>}
        <p role="status" className="needs-me-said small" data-testid="quick-vote-status">
          {votes.said}
        </p>
      </div>
      {open && (
        <div id={bodyId}>
          {GROUPS.map((group) => {
            const inGroup = items.filter((i) => (group.kinds as readonly string[]).includes(i.kind))
            if (inGroup.length === 0) return null
            const all = expanded.includes(group.key)
            return (
              <div key={group.key} className="needs-me-group" data-group={group.key}>
                <h3>{t(`needsMe.groups.${group.key}`)}</h3>
                <ul>
                  {(all ? inGroup : inGroup.slice(0, SHOWN)).map((item) => (
                    <NeedsMeItem
                      key={`${item.kind}-${item.proposal.id}`}
                      item={item}
                      wards={wards}
                      onShow={onShow}
                      votes={votes}
                    />
                  ))}
                </ul>
                {inGroup.length > SHOWN && (
                  <button
                    type="button"
                    className="button-link small"
                    aria-expanded={all}
                    onClick={() => setExpanded((e) => (all ? e.filter((k) => k !== group.key) : [...e, group.key]))}
                  >
                    {all ? t('needsMe.showFewer') : t('needsMe.showAll', { count: inGroup.length })}
                  </button>
                )}
              </div>
            )
          })}
        </div>
      )}
    </section>
  )
}

function NeedsMeItem({
  item,
  wards,
  onShow,
  votes,
}: {
  item: ActionItem
  wards: Ward[] | undefined
  onShow(item: { id: number; stage: Stage }): void
  votes: OneTapVotes
}) {
  const { t } = useTranslation('board')
  const p = item.proposal
  const name = `${p.fname} ${p.lname}`
  return (
    <li data-kind={item.kind} data-proposal={p.id}>
      <span className="needs-me-what">{t(`needsMe.kinds.${item.kind}`, { stage: t(`stages.${p.stage}`) })}</span>{' '}
      <Link to={ROUTES.proposal(p.id)}>{name}</Link>
      <span className="muted small">
        {' · '}
        {p.proposed_calling} · {wardName(wards, p.ward_id)}
      </span>{' '}
      <button type="button" className="button-link small" onClick={() => onShow({ id: p.id, stage: p.stage })}>
        {t('needsMe.show')}
        <span className="visually-hidden"> {name}</span>
      </button>
      {item.kind === 'vote' && (
        <span className="quick-vote">
          <OneTapVote votes={votes} id={p.id} name={name} stage={p.stage} small />
        </span>
      )}
    </li>
  )
}
