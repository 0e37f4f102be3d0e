import { useCallback, useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useActions } from '../../api/actions'
import { ApiError } from '../../api/client'
import { useQuickVote } from '../../api/proposals'
import { wardName } from '../../api/wards'
import type { ActionItem, Stage, Ward } from '../../api/types'
import { ROUTES } from '../../routes'

/** Entries shown per group before "Show all": the stages stay near the top of the page. */
const SHOWN = 5

/** How long a one-tap vote waits, undoable, before it is sent. */
export const UNDO_SECONDS = 5

interface Waiting {
  approved: boolean
  name: string
  from: Stage
  timer: ReturnType<typeof setTimeout>
}

/**
 * One-tap votes with an undo (issue 30): a tapped vote waits UNDO_SECONDS,
 * then is sent; "Undo" in that time forgets it (nothing reached the server,
 * so nobody was notified and nothing moved). Leaving the page or closing it
 * sends the waiting votes at once. What happened is said in a status line:
 * the vote, and whether it moved the proposal on (an auto-advance).
 */
function useOneTapVotes() {
  const { t } = useTranslation('board')
  const vote = useQuickVote()
  const waiting = useRef(new Map<number, Waiting>())
  const [shown, setShown] = useState<Record<number, boolean>>({})
  const [said, setSaid] = useState('')

  const send = useCallback(
    (id: number) => {
      const w = waiting.current.get(id)
      if (!w) return
      clearTimeout(w.timer)
      waiting.current.delete(id)
      setShown(({ [id]: _gone, ...rest }) => rest)
      const what = w.approved ? 'approved' : 'rejected'
      vote(id, w.approved).then(
        ({ stage }) =>
          setSaid(
            stage && stage !== w.from
              ? t(`needsMe.quick.${what}Moved`, { name: w.name, stage: t(`stages.${stage}`) })
              : t(`needsMe.quick.${what}Sent`, { name: w.name }),
          ),
        (err: unknown) =>
          setSaid(
            t('needsMe.quick.failed', {
              name: w.name,
              reason: err instanceof ApiError ? err.message : t('needsMe.quick.offline'),
            }),
          ),
      )
    },
    [t, vote],
  )

  const tap = useCallback(
    (id: number, name: string, from: Stage, approved: boolean) => {
      const timer = setTimeout(() => send(id), UNDO_SECONDS * 1000)
      waiting.current.set(id, { approved, name, from, timer })
      setShown((s) => ({ ...s, [id]: approved }))
      setSaid('')
    },
    [send],
  )

  const undo = useCallback(
    (id: number) => {
      const w = waiting.current.get(id)
      if (!w) return
      clearTimeout(w.timer)
      waiting.current.delete(id)
      setShown(({ [id]: _gone, ...rest }) => rest)
      setSaid(t('needsMe.quick.undone', { name: w.name }))
    },
    [t],
  )

  // A waiting vote is never lost: sent when the page goes away or the tab closes.
  useEffect(() => {
    const list = waiting.current
    const flush = () => {
      for (const id of [...list.keys()]) send(id)
    }
    window.addEventListener('pagehide', flush)
    return () => {
      window.removeEventListener('pagehide', flush)
      flush()
    }
  }, [send])

  return { shown, said, tap, undo }
}

const GROUPS = [
  { key: 'votes', kinds: ['vote'] },
  { key: 'interviews', kinds: ['interview'] },
  { key: 'steps', kinds: ['assign', 'step'] },
] as const

/**
 * "Needs me": what awaits the signed-in user (GET /actions, docs/api-reference.md §11) —
 * the votes they owe, their interviews, and the steps they may take — first
 * on the board. Each entry names its proposal and can bring its card into view.
 */
export function NeedsMe({
  wards,
  onShow,
}: {
  wards: Ward[] | undefined
  onShow(item: { id: number; stage: Stage }): void
}) {
  const { t } = useTranslation('board')
  const actions = useActions()
  const items = actions.data?.items ?? []
  const [expanded, setExpanded] = useState<string[]>([])
  const votes = useOneTapVotes()
  return (
    <section id="needs-me" className="needs-me-view" aria-labelledby="needs-me-title" data-testid="needs-me-view">
      <h2 id="needs-me-title">
        {t('needsMe.title')} <span className="count">{actions.data ? items.length : '…'}</span>
      </h2>
      <p role="status" className="needs-me-said small" data-testid="quick-vote-status">
        {votes.said}
      </p>
      {actions.data && items.length === 0 && <p className="muted small">{t('needsMe.nothing')}</p>}
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
  votes: ReturnType<typeof useOneTapVotes>
}) {
  const { t } = useTranslation('board')
  const p = item.proposal
  const name = `${p.fname} ${p.lname}`
  const waiting = votes.shown[p.id]
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
          {waiting === undefined ? (
            <>
              <button
                type="button"
                className="button small quick-approve"
                onClick={() => votes.tap(p.id, name, p.stage, true)}
              >
                {t('needsMe.quick.approve')}
                <span className="visually-hidden"> {name}</span>
              </button>
              <button
                type="button"
                className="button small quick-reject"
                onClick={() => votes.tap(p.id, name, p.stage, false)}
              >
                {t('needsMe.quick.reject')}
                <span className="visually-hidden"> {name}</span>
              </button>
            </>
          ) : (
            <>
              <span className="quick-waiting">
                {t(waiting ? 'needsMe.quick.approving' : 'needsMe.quick.rejecting', { seconds: UNDO_SECONDS })}
              </span>{' '}
              <button type="button" className="button small" onClick={() => votes.undo(p.id)}>
                {t('needsMe.quick.undo')}
                <span className="visually-hidden"> {name}</span>
              </button>
            </>
          )}
        </span>
      )}
    </li>
  )
}
