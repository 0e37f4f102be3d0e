import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Link } from 'react-router'
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
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core'
import { api, ApiError } from '../../api/client'
import { actionKeys } from '../../api/actions'
import { qk, useWards, wardName } from '../../api/queries'
import {
  OPEN_STAGES,
  STAGE_LABELS,
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
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { ProposalCard } from './ProposalCard'

type Column = OpenStage | 'done'

/** Left/right arrows jump a lifted card to the centre of the neighbouring column. */
const columnJump: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const { collisionRect, droppableRects } = context
  if (!collisionRect || (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft')) return undefined
  event.preventDefault()
  const cx = collisionRect.left + collisionRect.width / 2
  const rects = [...droppableRects.values()].sort((a, b) => a.left - b.left)
  const target =
    event.code === 'ArrowRight' ? rects.find((r) => r.left > cx) : [...rects].reverse().find((r) => r.right < cx)
  if (!target) return currentCoordinates
  return { x: currentCoordinates.x + (target.left + target.width / 2 - cx), y: currentCoordinates.y }
}

function DraggableCard({ id, disabled, children }: { id: number; disabled: boolean; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id, disabled })
  // Space/Enter pick the card up only when the card itself has focus, so Enter
  // on the name link still opens the proposal and the card's buttons still work.
  const { onKeyDown, ...pointer } = (listeners ?? {}) as Record<string, (e: KeyboardEvent<HTMLDivElement>) => void>
  return (
    <div
      ref={setNodeRef}
      {...(disabled ? {} : pointer)}
      onKeyDown={disabled ? undefined : (e) => e.target === e.currentTarget && onKeyDown?.(e)}
      {...(disabled ? {} : attributes)}
      aria-roledescription={disabled ? undefined : 'draggable proposal'}
      className={`drag-wrap ${isDragging ? 'is-dragging' : ''} ${disabled ? '' : 'can-drag'}`}
    >
      {children}
    </div>
  )
}

function StageColumn({ stage, count, children }: { stage: Column; count: number; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: stage })
  const title = stage === 'done' ? 'Closed recently' : STAGE_LABELS[stage]
  return (
    <section
      ref={setNodeRef}
      className={`column ${isOver ? 'column-over' : ''}`}
      aria-labelledby={`col-${stage}`}
      data-stage={stage}
    >
      <h2 id={`col-${stage}`} className="column-title">
        <span>{title}</span>
        <span className="count" aria-label={`${count} proposals`}>
          {count}
        </span>
      </h2>
      <div className="column-body">{children}</div>
    </section>
  )
}

export default function BoardPage() {
  const me = useMe()
  const qc = useQueryClient()
  const notify = useNotify()
  const wards = useWards()
  const board = useQuery({ queryKey: qk.board, queryFn: () => api<Board>('/calling-kanban/board') })
  const [wardFilter, setWardFilter] = useState('')
  const [search, setSearch] = useState('')
  const [activeId, setActiveId] = useState<number | null>(null)
  const [votingId, setVotingId] = useState<number | null>(null)
  const isManager = can(me, 'proposals.manage')

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

  const vote = useMutation({
    mutationFn: ({ id, approved }: { id: number; approved: boolean }) =>
      api(`/calling-kanban/proposals/${id}/approvals`, { method: 'POST', query: { approved } }),
    onMutate: ({ id }) => setVotingId(id),
    onSuccess: (_d, { approved }) => notify(approved ? 'Approval recorded.' : 'Rejection recorded.', 'success'),
    onError: (err) => {
      notify(
        err instanceof ApiError && err.code === 'wrong_stage'
          ? 'This proposal has moved on; the board was reloaded.'
          : (err as Error).message,
        'error',
      )
    },
    onSettled: (_d, _e, { id }) => {
      setVotingId(null)
      void qc.invalidateQueries({ queryKey: qk.board })
      void qc.invalidateQueries({ queryKey: actionKeys.all })
      void qc.invalidateQueries({ queryKey: qk.proposal(id) })
    },
  })

  const move = useMutation({
    mutationFn: ({ p, direction }: { p: Proposal; direction: 'advance' | 'revert' }) =>
      api<Proposal>(`/calling-kanban/proposals/${p.id}/${direction}`, {
        method: 'POST',
        query: { from_stage: p.stage },
      }),
    onMutate: async ({ p, direction }) => {
      // Optimistic: the card jumps at once; a conflict puts the server's truth back.
      await qc.cancelQueries({ queryKey: qk.board })
      const before = qc.getQueryData<Board>(qk.board)
      const target = direction === 'advance' ? nextStage(p.stage, p.is_release) : prevStage(p.stage, p.is_release)
      if (before && target) {
        const stages = { ...before.stages }
        const from = p.stage as OpenStage
        stages[from] = (stages[from] ?? []).filter((x) => x.id !== p.id)
        const moved = { ...p, stage: target, approvals: { approved: 0, rejected: 0 }, my_vote: null }
        let closed = before.closed_recently
        if (target === 'done') closed = [moved, ...closed]
        else stages[target as OpenStage] = [...(stages[target as OpenStage] ?? []), moved]
        qc.setQueryData<Board>(qk.board, { ...before, stages, closed_recently: closed })
      }
      return { before }
    },
    onSuccess: (_d, { p, direction }) => {
      const target = direction === 'advance' ? nextStage(p.stage, p.is_release) : prevStage(p.stage, p.is_release)
      notify(`${p.fname} ${p.lname} moved to ${target ? STAGE_LABELS[target] : 'the next stage'}.`, 'success')
    },
    onError: (err, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(qk.board, ctx.before)
      if (err instanceof ApiError && err.status === 409) {
        notify('Someone else has already moved this proposal. The board has been reloaded.', 'error')
      } else {
        notify((err as Error).message, 'error')
      }
    },
    onSettled: (_d, _e, { p }) => {
      void qc.invalidateQueries({ queryKey: qk.board })
      void qc.invalidateQueries({ queryKey: actionKeys.all })
      void qc.invalidateQueries({ queryKey: qk.proposal(p.id) })
    },
  })

  function onDragStart(e: DragStartEvent) {
    setActiveId(Number(e.active.id))
  }

  function onDragEnd(e: DragEndEvent) {
    setActiveId(null)
    const p = allCards.get(Number(e.active.id))
    const to = e.over?.id as Column | undefined
    if (!p || !to || to === p.stage) return
    const next = nextStage(p.stage, p.is_release)
    const prev = prevStage(p.stage, p.is_release)
    if (to === next) move.mutate({ p, direction: 'advance' })
    else if (to === prev) move.mutate({ p, direction: 'revert' })
    else
      notify(
        `A proposal moves one stage at a time along its path${next ? ` (next: ${STAGE_LABELS[next]})` : ''}.`,
        'info',
      )
  }

  const activeCard = activeId != null ? allCards.get(activeId) : undefined

  function renderCard(p: Proposal, draggable: boolean) {
    const stage = p.stage as Stage
    return (
      <ProposalCard
        proposal={p}
        wardLabel={wardName(wards.data, p.ward_id)}
        actions={
          draggable
            ? {
                canVote: canVote(me, p),
                voting: votingId === p.id,
                onVote: (approved) => vote.mutate({ id: p.id, approved }),
                canMove: isManager,
                next: nextStage(stage, p.is_release),
                prev: prevStage(stage, p.is_release),
                onMove: (direction) => move.mutate({ p, direction }),
              }
            : undefined
        }
      />
    )
  }

  const closed = (board.data?.closed_recently ?? []).filter(matches)

  return (
    <div className="board-page">
      <PageHeader
        title="Calling proposals"
        actions={
          can(me, 'proposals.submit') ? (
            <Link to={ROUTES.newProposal} className="button button-primary">
              New proposal
            </Link>
          ) : undefined
        }
      />
      <div className="filters" role="search">
        <div className="field field-inline">
          <label htmlFor="board-search">Search</label>
          <input
            id="board-search"
            type="search"
            placeholder="Name or calling"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="board-ward">Ward</label>
          <select id="board-ward" value={wardFilter} onChange={(e) => setWardFilter(e.target.value)}>
            <option value="">All wards</option>
            {(wards.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        {isManager && (
          <p className="muted small hint-drag">Drag a card one stage forward or back, or use its Move menu.</p>
        )}
      </div>
      {board.isLoading && <Loading label="Loading the board…" />}
      <ErrorMessage error={board.error} />
      {board.data && (
        <DndContext
          sensors={sensors}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setActiveId(null)}
          accessibility={{
            screenReaderInstructions: {
              draggable:
                'To move this proposal, press space or enter, use the arrow keys to reach the next or previous stage, and press space or enter again; escape cancels. Or use its Move menu.',
            },
          }}
        >
          <div className="board" aria-busy={board.isFetching}>
            {OPEN_STAGES.map((stage) => {
              const cards = (board.data.stages[stage] ?? []).filter(matches)
              return (
                <StageColumn key={stage} stage={stage} count={cards.length}>
                  {cards.length === 0 && <Empty>No proposals</Empty>}
                  {cards.map((p) => (
                    <DraggableCard key={p.id} id={p.id} disabled={!isManager}>
                      {renderCard(p, true)}
                    </DraggableCard>
                  ))}
                </StageColumn>
              )
            })}
            <StageColumn stage="done" count={closed.length}>
              {closed.length === 0 && <Empty>Nothing closed in the last 30 days</Empty>}
              {closed.map((p) => (
                <div key={p.id} className={`closed-card ${p.stage === 'declined' ? 'is-declined' : ''}`}>
                  <ProposalCard
                    proposal={p}
                    wardLabel={`${wardName(wards.data, p.ward_id)} · ${STAGE_LABELS[p.stage]}`}
                  />
                </div>
              ))}
            </StageColumn>
          </div>
          <DragOverlay dropAnimation={null}>
            {activeCard ? (
              <ProposalCard proposal={activeCard} wardLabel={wardName(wards.data, activeCard.ward_id)} dragging />
            ) : null}
          </DragOverlay>
        </DndContext>
      )}
    </div>
  )
}
