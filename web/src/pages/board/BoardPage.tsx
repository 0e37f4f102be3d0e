import { useMemo, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core'
import { useBoard, useClosedCards } from '../../api/proposals'
import { useWards, wardName } from '../../api/wards'
import { OPEN_STAGES, type OpenStage, type Proposal } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can, canVote } from '../../auth/roles'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { BoardFilters } from './BoardFilters'
import { COLUMNS, columnOf, movesOf, usePhone, type Column } from './columns'
import { columnJump, DraggableCard, useAnnouncements } from './dnd'
import { MoveConfirm } from './MoveConfirm'
import { NeedsMe } from './NeedsMe'
import { ProposalCard } from './ProposalCard'
import { SetupChecklist } from './SetupChecklist'
import { StageColumn, StageTabs } from './StageColumn'
import { useBoardMoves } from './useBoardMoves'

export default function BoardPage() {
  const { t } = useTranslation('board')
  const me = useMe()
  const wards = useWards()
  const phone = usePhone()
  const board = useBoard()
  const [wardFilter, setWardFilter] = useState('')
  const [kindFilter, setKindFilter] = useState('')
  const [search, setSearch] = useState('')
  const [activeId, setActiveId] = useState<number | null>(null)
  const [tab, setTab] = useState<Column>('sp_approval')
  // The closed column is a count until it is opened (its tab, or its button on a wide screen).
  const [closedOpened, setClosedOpened] = useState(false)
  const closedShown = phone ? tab === 'done' : closedOpened
  const closedPages = useClosedCards(closedShown)
  const moves = useBoardMoves({ board: board.data, phone, tab, setTab })
  const { votingOf, stageName } = moves
  const isManager = can(me, 'proposals.manage')

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnJump }),
  )

  const matches = useMemo(() => {
    const q = search.trim().toLowerCase()
    return (p: Proposal) =>
      (!wardFilter || p.ward_id === Number(wardFilter)) &&
      (!kindFilter || p.kind === kindFilter) &&
      (!q ||
        `${p.fname} ${p.lname}`.toLowerCase().includes(q) ||
        p.proposed_calling.toLowerCase().includes(q) ||
        (p.spouse_name ?? '').toLowerCase().includes(q))
  }, [search, wardFilter, kindFilter])

  const allCards = useMemo(() => {
    const map = new Map<number, Proposal>()
    if (board.data) {
      for (const s of OPEN_STAGES) for (const p of board.data.stages[s] ?? []) map.set(p.id, p)
    }
    return map
  }, [board.data])
  const announcements = useAnnouncements(allCards)

  const keyboardDrag = useRef(false)

  /** A card headed for done opens the closed column, so that it stays in sight once the board is fetched again. */
  const requestMove: typeof moves.requestMove = (p, m, via) => {
    if (m.to === 'done') setClosedOpened(true)
    moves.requestMove(p, m, via)
  }

  function onDragStart(e: DragStartEvent) {
    setActiveId(Number(e.active.id))
    keyboardDrag.current = e.activatorEvent?.type.startsWith('key') ?? false
  }

  function onDragEnd(e: DragEndEvent) {
    setActiveId(null)
    const p = allCards.get(Number(e.active.id))
    const to = e.over?.id as Column | undefined
    if (!p || !to || to === columnOf(p.stage)) return
    const m = movesOf(p).find((x) => columnOf(x.to) === to)
    if (m) requestMove(p, m, keyboardDrag.current ? 'handle' : null)
  }

  const activeCard = activeId != null ? allCards.get(activeId) : undefined
  const validTargets = useMemo(
    () =>
      new Set<string>(
        activeCard ? [columnOf(activeCard.stage), ...movesOf(activeCard).map((m) => columnOf(m.to))] : COLUMNS,
      ),
    [activeCard],
  )

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
              voting: moves.votingId === p.id,
              onVote: (approved) => moves.vote(p, approved),
              moves: isManager ? movesOf(p) : [],
              onMove: (m) => requestMove(p, m, 'menu'),
            }}
          />
        )}
      </DraggableCard>
    )
  }

  // Closed here (a card just moved to done) first, then the column's pages as loaded.
  const closedLoaded = useMemo(() => {
    const seen = new Set<number>()
    return [...(board.data?.closed_recently ?? []), ...(closedPages.data?.pages.flatMap((p) => p.items) ?? [])].filter(
      (p) => !seen.has(p.id) && seen.add(p.id),
    )
  }, [board.data, closedPages.data])
  const closed = closedLoaded.filter(matches)
  const filtered = search.trim() !== '' || wardFilter !== '' || kindFilter !== ''
  const closedTotal = board.data ? board.data.closed.done + board.data.closed.declined : 0
  // Ordinations at `ordain` share the "Set apart / Ordain" column (docs/decisions.md).
  const cardsOf = (stage: OpenStage) =>
    [...(board.data?.stages[stage] ?? []), ...(stage === 'set_apart' ? (board.data?.stages.ordain ?? []) : [])].filter(
      matches,
    )
  const counts = Object.fromEntries(
    COLUMNS.map((c) => [c, c === 'done' ? (filtered && closedShown ? closed.length : closedTotal) : cardsOf(c).length]),
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
          const column = columnOf(stage)
          setSearch('')
          setWardFilter('')
          setKindFilter('')
          setTab(column)
          moves.focusCard({ id, stage: column, on: 'card' })
        }}
      />
      <BoardFilters
        search={search}
        onSearch={setSearch}
        ward={wardFilter}
        onWard={setWardFilter}
        wards={wards.data}
        kind={kindFilter}
        onKind={setKindFilter}
        hint={isManager ? (phone ? t('hintPhone') : t('hintDrag')) : null}
      />
      <p className="board-notice" role="status" aria-live="polite" data-testid="board-notice">
        {moves.announcement}
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
                    {closedTotal === 0 && closed.length === 0 && <p className="empty">{t('empty.closed')}</p>}
                    {!closedShown && closedTotal > 0 && (
                      <button type="button" className="button" onClick={() => setClosedOpened(true)}>
                        {t('closedColumn.show', { count: closedTotal })}
                      </button>
                    )}
                    {closedShown && closedPages.isLoading && <Loading label={t('closedColumn.loading')} />}
                    <ErrorMessage error={closedPages.error} />
                    {closed.map((p) => (
                      <div key={p.id} className={`closed-card ${p.stage === 'declined' ? 'is-declined' : ''}`}>
                        <ProposalCard
                          proposal={p}
                          wardLabel={`${wardName(wards.data, p.ward_id)} · ${stageName(p.stage)}`}
                        />
                      </div>
                    ))}
                    {closedShown && closedPages.hasNextPage && (
                      <button
                        type="button"
                        className="button"
                        disabled={closedPages.isFetchingNextPage}
                        onClick={() => void closedPages.fetchNextPage()}
                      >
                        {t('closedColumn.more')}
                      </button>
                    )}
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
      <MoveConfirm pending={moves.pendingMove} onCancel={moves.cancelMove} onConfirm={moves.confirmMove} />
    </div>
  )
}
