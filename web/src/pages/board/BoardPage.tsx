import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core'
import { api, ApiError } from '../../api/client'
import { actionKeys } from '../../api/actions'
import { qk, useWards, wardName } from '../../api/queries'
import {
  OPEN_STAGES,
  isVotingStage,
  nextStage,
  prevStage,
  type Board,
  type OpenStage,
  type Proposal,
  type Stage,
} from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, canVote } from '../../auth/roles'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { MoveConfirm, type PendingMove } from './MoveConfirm'
import { NeedsMe } from './NeedsMe'
import { ProposalCard, type CardMove, type CardVoting } from './ProposalCard'
import { SetupChecklist } from './SetupChecklist'

type Column = OpenStage | 'done'
const COLUMNS: Column[] = [...OPEN_STAGES, 'done']

/** Phone width: the stages become tabs with counts instead of side-by-side columns. */
const PHONE_QUERY = '(max-width: 720px)'

function usePhone(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(PHONE_QUERY)
      mq.addEventListener('change', onChange)
      return () => mq.removeEventListener('change', onChange)
    },
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  )
}

/** The moves a card may make: one step forward or back along its own path. */
function movesOf(p: Proposal): CardMove[] {
  const moves: CardMove[] = []
  const next = nextStage(p.stage, p.is_release)
  const prev = prevStage(p.stage, p.is_release)
  if (next) moves.push({ to: next, direction: 'advance' })
  if (prev) moves.push({ to: prev, direction: 'revert' })
  return moves
}

/**
 * Left/right arrows jump a lifted card to the centre of the nearest enabled
 * column that way; the columns a card may not go to are disabled drop targets.
 */
const columnJump: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const { collisionRect, droppableRects, droppableContainers } = context
  if (!collisionRect || (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft')) return undefined
  event.preventDefault()
  const cx = collisionRect.left + collisionRect.width / 2
  const rects = droppableContainers
    .getEnabled()
    .map((c) => droppableRects.get(c.id))
    .filter((r) => r != null)
    .sort((a, b) => a.left - b.left)
  const target =
    event.code === 'ArrowRight' ? rects.find((r) => r.left > cx) : [...rects].reverse().find((r) => r.right < cx)
  if (!target) return currentCoordinates
  return { x: currentCoordinates.x + (target.left + target.width / 2 - cx), y: currentCoordinates.y }
}

/**
 * A card that can be dragged with the pointer from anywhere on it, and lifted
 * with the keyboard from its handle: a real button, so the card itself is not
 * an interactive element wrapped around links and buttons.
 */
function DraggableCard({
  id,
  name,
  disabled,
  children,
}: {
  id: number
  name: string
  disabled: boolean
  children(handle: ReactNode): ReactNode
}) {
  const { t } = useTranslation('board')
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({ id, disabled })
  const { onKeyDown, onPointerDown } = (listeners ?? {}) as Record<string, (e: unknown) => void>
  const handle = disabled ? null : (
    <button
      type="button"
      ref={setActivatorNodeRef}
      className="drag-handle"
      {...attributes}
      aria-roledescription={t('dnd.roleDescription')}
      onKeyDown={(e: KeyboardEvent<HTMLButtonElement>) => onKeyDown?.(e)}
      data-drag-handle={id}
    >
      <span aria-hidden="true">⠿</span>
      <span className="visually-hidden">{t('dnd.handle', { name })}</span>
    </button>
  )
  return (
    <div
      ref={setNodeRef}
      onPointerDown={disabled ? undefined : onPointerDown}
      className={`drag-wrap ${isDragging ? 'is-dragging' : ''} ${disabled ? '' : 'can-drag'}`}
    >
      {children(handle)}
    </div>
  )
}

function StageColumn({
  stage,
  count,
  refuse,
  tabbed,
  children,
}: {
  stage: Column
  count: number
  /** During a drag: this column is not a valid target (dimmed, and drops are refused). */
  refuse: boolean
  /** On a phone the column is the panel of its tab, whose title the tab shows. */
  tabbed: boolean
  children: ReactNode
}) {
  const { t } = useTranslation('board')
  const { setNodeRef, isOver } = useDroppable({ id: stage, disabled: refuse })
  return (
    <section
      ref={setNodeRef}
      className={`column ${isOver ? 'column-over' : ''} ${refuse ? 'column-refuse' : ''}`}
      aria-labelledby={tabbed ? `tab-${stage}` : `col-${stage}`}
      role={tabbed ? 'tabpanel' : undefined}
      id={`panel-${stage}`}
      data-stage={stage}
    >
      {!tabbed && (
        <h2 id={`col-${stage}`} className="column-title">
          <span>{t(`columns.${stage}`)}</span>
          <span className="count">
            {count}
            <span className="visually-hidden"> {t('columns.proposals')}</span>
          </span>
        </h2>
      )}
      <div className="column-body">{children}</div>
    </section>
  )
}

/** On a phone: one tab per stage, with its count; arrows move between tabs. */
function StageTabs({
  counts,
  selected,
  onSelect,
}: {
  counts: Record<Column, number>
  selected: Column
  onSelect(stage: Column): void
}) {
  const { t } = useTranslation('board')
  function onKey(e: KeyboardEvent<HTMLButtonElement>, i: number) {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    e.preventDefault()
    const next = COLUMNS[(i + step + COLUMNS.length) % COLUMNS.length]!
    onSelect(next)
    document.getElementById(`tab-${next}`)?.focus()
  }
  return (
    <div className="stage-tabs" role="tablist" aria-label={t('tabs.label')}>
      {COLUMNS.map((stage, i) => (
        <button
          key={stage}
          type="button"
          role="tab"
          id={`tab-${stage}`}
          aria-selected={stage === selected}
          aria-controls={stage === selected ? `panel-${stage}` : undefined}
          tabIndex={stage === selected ? 0 : -1}
          className="stage-tab"
          onClick={() => onSelect(stage)}
          onKeyDown={(e) => onKey(e, i)}
        >
          <span>{t(`columns.${stage}`)}</span> <span className="count">{counts[stage]}</span>
        </button>
      ))}
    </div>
  )
}

/** Where focus goes once a card has moved: its handle (keyboard), its Move menu, or the card. */
interface FocusTarget {
  id: number
  stage: Column
  on: 'handle' | 'menu' | 'card'
}

export default function BoardPage() {
  const { t } = useTranslation('board')
  const me = useMe()
  const qc = useQueryClient()
  const notify = useNotify()
  const wards = useWards()
  const phone = usePhone()
  const board = useQuery({ queryKey: qk.board, queryFn: () => api<Board>('/calling-kanban/board') })
  const [wardFilter, setWardFilter] = useState('')
  const [search, setSearch] = useState('')
  const [activeId, setActiveId] = useState<number | null>(null)
  const [votingId, setVotingId] = useState<number | null>(null)
  const [tab, setTab] = useState<Column>('sp_approval')
  const [announcement, setAnnouncement] = useState('')
  const [pendingMove, setPendingMove] = useState<(PendingMove & { via: FocusTarget['on'] }) | null>(null)
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null)
  const isManager = can(me, 'proposals.manage')
  const stageName = useCallback((s: Stage) => t(`stages.${s}`), [t])

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnJump }),
  )

  const matches = useMemo(() => {
    const q = search.trim().toLowerCase()
    return (p: Proposal) =>
      (!wardFilter || p.ward_id === Number(wardFilter)) &&
      (!q ||
        `${p.fname} ${p.lname}`.toLowerCase().includes(q) ||
        p.proposed_calling.toLowerCase().includes(q) ||
        (p.spouse_name ?? '').toLowerCase().includes(q))
  }, [search, wardFilter])

  const allCards = useMemo(() => {
    const map = new Map<number, Proposal>()
    if (board.data) {
      for (const s of OPEN_STAGES) for (const p of board.data.stages[s] ?? []) map.set(p.id, p)
    }
    return map
  }, [board.data])

  /** The stage's required approvals and who has not voted yet on this card. */
  const votingOf = useCallback(
    (p: Proposal): CardVoting | undefined => {
      if (!board.data || (p.stage !== 'sp_approval' && p.stage !== 'hc_approval')) return undefined
      const stage = board.data.voting[p.stage]
      const voted = new Set(board.data.votes.filter((v) => v.proposal_id === p.id).map((v) => v.voter_id))
      return { required: stage.required, pending: stage.voters.filter((v) => !voted.has(v.id)) }
    },
    [board.data],
  )

  // After a keyboard or menu move, focus stays on the moved card (wherever it now is).
  useEffect(() => {
    if (!focusTarget) return
    const frame = requestAnimationFrame(() => {
      const card = document.querySelector<HTMLElement>(
        `.board [data-stage="${focusTarget.stage}"] [data-card="${focusTarget.id}"]`,
      )
      if (!card) return
      const inner =
        focusTarget.on === 'handle'
          ? card.querySelector<HTMLElement>(`[data-drag-handle="${focusTarget.id}"]`)
          : focusTarget.on === 'menu'
            ? card.querySelector<HTMLElement>(`[data-move-trigger="${focusTarget.id}"]`)
            : null
      const target = inner ?? card
      target.focus()
      if (focusTarget.on === 'card') target.scrollIntoView({ block: 'center', behavior: 'smooth' })
      setFocusTarget(null)
    })
    return () => cancelAnimationFrame(frame)
  }, [focusTarget, board.data, tab])

  // The notice stays a while, then goes (the live region has said it by then).
  useEffect(() => {
    if (!announcement) return
    const timer = setTimeout(() => setAnnouncement(''), 10_000)
    return () => clearTimeout(timer)
  }, [announcement])

  const invalidate = (id: number) => {
    void qc.invalidateQueries({ queryKey: qk.board })
    void qc.invalidateQueries({ queryKey: actionKeys.all })
    void qc.invalidateQueries({ queryKey: qk.proposal(id) })
  }

  const vote = useMutation({
    mutationFn: async ({ p, approved }: { p: Proposal; approved: boolean }) => {
      await api(`/calling-kanban/proposals/${p.id}/approvals`, { method: 'POST', query: { approved } })
      // Auto-advance happens in the same transaction as the vote: read where the proposal is now.
      return api<Proposal>(`/calling-kanban/proposals/${p.id}`).catch(() => null)
    },
    onMutate: ({ p }) => setVotingId(p.id),
    onSuccess: (after, { p, approved }) => {
      notify(approved ? t('notice.approved') : t('notice.rejected'), 'success')
      if (after && after.stage !== p.stage) {
        const count = p.approvals.approved + (p.my_vote === true ? 0 : 1)
        const text =
          count === 1
            ? t('notice.autoAdvancedOne', { name: `${p.fname} ${p.lname}`, stage: stageName(after.stage) })
            : t('notice.autoAdvanced', { name: `${p.fname} ${p.lname}`, stage: stageName(after.stage), count })
        setAnnouncement(text)
      }
    },
    onError: (err) => {
      notify(
        err instanceof ApiError && err.code === 'wrong_stage' ? t('notice.movedOn') : (err as Error).message,
        'error',
      )
    },
    onSettled: (_d, _e, { p }) => {
      setVotingId(null)
      invalidate(p.id)
    },
  })

  const move = useMutation({
    mutationFn: ({
      p,
      direction,
    }: {
      p: Proposal
      to: Stage
      direction: 'advance' | 'revert'
      via: FocusTarget['on'] | null
    }) =>
      api<Proposal>(`/calling-kanban/proposals/${p.id}/${direction}`, {
        method: 'POST',
        query: { from_stage: p.stage },
      }),
    onMutate: async ({ p, to, via }) => {
      // Optimistic: the card jumps at once; a conflict puts the server's truth back.
      await qc.cancelQueries({ queryKey: qk.board })
      const before = qc.getQueryData<Board>(qk.board)
      if (before) {
        const stages = { ...before.stages }
        const from = p.stage as OpenStage
        stages[from] = (stages[from] ?? []).filter((x) => x.id !== p.id)
        const moved = { ...p, stage: to, approvals: { approved: 0, rejected: 0 }, my_vote: null }
        let closed = before.closed_recently
        if (to === 'done') closed = [moved, ...closed]
        else stages[to as OpenStage] = [...(stages[to as OpenStage] ?? []), moved]
        qc.setQueryData<Board>(qk.board, { ...before, stages, closed_recently: closed })
      }
      const column: Column = to === 'done' || to === 'declined' ? 'done' : (to as OpenStage)
      if (via) {
        if (phone) setTab(column)
        setFocusTarget({ id: p.id, stage: column, on: via === 'handle' && column === 'done' ? 'card' : via })
      }
      return { before }
    },
    onSuccess: (_d, { p, to }) => {
      const text = t('notice.moved', { name: `${p.fname} ${p.lname}`, stage: stageName(to) })
      notify(text, 'success')
      setAnnouncement(text)
    },
    onError: (err, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(qk.board, ctx.before)
      if (err instanceof ApiError && err.status === 409) notify(t('notice.conflict'), 'error')
      else notify((err as Error).message, 'error')
    },
    onSettled: (_d, _e, { p }) => invalidate(p.id),
  })

  /** Moves a card, first asking when a forward move leaves votes missing. */
  function requestMove(p: Proposal, m: CardMove, via: FocusTarget['on'] | null) {
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
    move.mutate({ p, to: m.to, direction: m.direction, via })
  }

  const keyboardDrag = useRef(false)

  function onDragStart(e: DragStartEvent) {
    setActiveId(Number(e.active.id))
    keyboardDrag.current = e.activatorEvent?.type.startsWith('key') ?? false
  }

  function onDragEnd(e: DragEndEvent) {
    setActiveId(null)
    const p = allCards.get(Number(e.active.id))
    const to = e.over?.id as Column | undefined
    if (!p || !to || to === p.stage) return
    const m = movesOf(p).find((x) => x.to === to)
    if (m) requestMove(p, m, keyboardDrag.current ? 'handle' : null)
  }

  const activeCard = activeId != null ? allCards.get(activeId) : undefined
  const validTargets = useMemo(
    () => new Set<string>(activeCard ? [activeCard.stage, ...movesOf(activeCard).map((m) => m.to)] : COLUMNS),
    [activeCard],
  )

  const cardName = (id: UniqueIdentifier) => {
    const p = allCards.get(Number(id))
    return p ? `${p.fname} ${p.lname}` : ''
  }
  const columnName = (id: UniqueIdentifier | undefined) => (id ? t(`columns.${String(id)}`) : '')
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('dnd.start', { name: cardName(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('dnd.over', { name: cardName(active.id), stage: columnName(over.id) })
        : t('dnd.notOver', { name: cardName(active.id) }),
    onDragEnd: ({ active, over }) => {
      const p = allCards.get(Number(active.id))
      if (!over || !p || over.id === p.stage) return t('dnd.stayed', { name: cardName(active.id) })
      return t('dnd.dropped', { name: cardName(active.id), stage: columnName(over.id) })
    },
    onDragCancel: ({ active }) => t('dnd.cancelled', { name: cardName(active.id) }),
  }

  function renderCard(p: Proposal) {
    return (
      <DraggableCard key={p.id} id={p.id} name={`${p.fname} ${p.lname}`} disabled={!isManager || phone}>
        {(handle) => (
          <ProposalCard
            proposal={p}
            wardLabel={wardName(wards.data, p.ward_id)}
            voting={votingOf(p)}
            handle={handle}
            actions={{
              canVote: canVote(me, p),
              voting: votingId === p.id,
              onVote: (approved) => vote.mutate({ p, approved }),
              moves: isManager ? movesOf(p) : [],
              onMove: (m) => requestMove(p, m, 'menu'),
            }}
          />
        )}
      </DraggableCard>
    )
  }

  const closed = (board.data?.closed_recently ?? []).filter(matches)
  const cardsOf = (stage: OpenStage) => (board.data?.stages[stage] ?? []).filter(matches)
  const counts = Object.fromEntries(
    COLUMNS.map((c) => [c, c === 'done' ? closed.length : cardsOf(c).length]),
  ) as Record<Column, number>
  const shown = phone ? [tab] : COLUMNS

  return (
    <div className="board-page">
      <PageHeader
        title={t('title')}
        actions={
          can(me, 'proposals.submit') ? (
            <Link to={ROUTES.newProposal} className="button button-primary">
              {t('newProposal')}
            </Link>
          ) : undefined
        }
      />
      <SetupChecklist me={me} board={board.data} />
      <NeedsMe
        wards={wards.data}
        onShow={({ id, stage }) => {
          const column: Column = stage === 'done' || stage === 'declined' ? 'done' : stage
          setSearch('')
          setWardFilter('')
          setTab(column)
          setFocusTarget({ id, stage: column, on: 'card' })
        }}
      />
      <div className="filters" role="search">
        <div className="field field-inline">
          <label htmlFor="board-search">{t('filters.search')}</label>
          <input
            id="board-search"
            type="search"
            placeholder={t('filters.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="board-ward">{t('filters.ward')}</label>
          <select id="board-ward" value={wardFilter} onChange={(e) => setWardFilter(e.target.value)}>
            <option value="">{t('filters.allWards')}</option>
            {(wards.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        {isManager && <p className="muted small hint-drag">{phone ? t('hintPhone') : t('hintDrag')}</p>}
      </div>
      <p className="board-notice" role="status" aria-live="polite" data-testid="board-notice">
        {announcement}
      </p>
      {board.isLoading && <Loading label={t('loading')} />}
      <ErrorMessage error={board.error} />
      {board.data && (
        <DndContext
          sensors={sensors}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setActiveId(null)}
          accessibility={{
            announcements,
            screenReaderInstructions: { draggable: t('dnd.instructions') },
          }}
        >
          {phone && <StageTabs counts={counts} selected={tab} onSelect={setTab} />}
          <div className={`board ${phone ? 'board-tabbed' : ''}`} aria-busy={board.isFetching}>
            {shown.map((stage) => (
              <StageColumn
                key={stage}
                stage={stage}
                count={counts[stage]}
                refuse={activeCard != null && !validTargets.has(stage)}
                tabbed={phone}
              >
                {stage === 'done' ? (
                  <>
                    {closed.length === 0 && <p className="empty">{t('empty.closed')}</p>}
                    {closed.map((p) => (
                      <div key={p.id} className={`closed-card ${p.stage === 'declined' ? 'is-declined' : ''}`}>
                        <ProposalCard
                          proposal={p}
                          wardLabel={`${wardName(wards.data, p.ward_id)} · ${stageName(p.stage)}`}
                        />
                      </div>
                    ))}
                  </>
                ) : (
                  <>
                    {cardsOf(stage).length === 0 && <p className="empty">{t('empty.stage')}</p>}
                    {cardsOf(stage).map(renderCard)}
                  </>
                )}
              </StageColumn>
            ))}
          </div>
          <DragOverlay dropAnimation={null}>
            {activeCard ? (
              <ProposalCard
                proposal={activeCard}
                wardLabel={wardName(wards.data, activeCard.ward_id)}
                voting={votingOf(activeCard)}
                dragging
              />
            ) : null}
          </DragOverlay>
        </DndContext>
      )}
      <MoveConfirm
        pending={pendingMove}
        onCancel={() => {
          // Focus goes back to where the move was asked for, on the card that stayed.
          if (pendingMove) {
            const p = pendingMove.proposal
            setFocusTarget({ id: p.id, stage: p.stage as OpenStage, on: pendingMove.via })
          }
          setPendingMove(null)
        }}
        onConfirm={() => {
          if (!pendingMove) return
          const p = pendingMove.proposal
          setPendingMove(null)
          move.mutate({ p, to: pendingMove.to, direction: 'advance', via: pendingMove.via })
        }}
      />
    </div>
  )
}
