import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DndContext, DragOverlay } from '@dnd-kit/core'
import { useBoard, useClosedCards } from '../../api/proposals'
import { useWards, wardName } from '../../api/wards'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ErrorMessage, Loading } from '../../components/ui'
import { BoardCard } from './BoardCard'
import { BoardFilters } from './BoardFilters'
import { BoardTop } from './BoardTop'
import { ClosedColumn } from './ClosedColumn'
import { COLUMNS, columnOf, usePhone } from './columns'
import { MoveConfirm } from './MoveConfirm'
import { ProposalCard } from './ProposalCard'
import { StageColumn, StageTabs } from './StageColumn'
import { useBoardCards } from './useBoardCards'
import { useBoardDrag } from './useBoardDrag'
import { useBoardFilter } from './useBoardFilter'
import { useBoardMoves } from './useBoardMoves'
import { useBoardTab } from './useBoardTab'
import './board.css'

export default function BoardPage() {
  const { t } = useTranslation('board')
  const me = useMe()
  const wards = useWards()
  const phone = usePhone()
  const board = useBoard()
  const filter = useBoardFilter()
  const [tab, setTab, shown] = useBoardTab(board.data, phone)
  // The closed column is a count until it is opened (its tab, or its button on a wide screen).
  const [closedOpened, setClosedOpened] = useState(false)
  const closedShown = phone ? tab === 'done' : closedOpened
  const closedPages = useClosedCards(closedShown)
  const moves = useBoardMoves({ board: board.data, phone, tab, setTab })
  const isManager = can(me, 'proposals.manage')

  /** A card headed for done opens the closed column, so that it stays in sight once the board is fetched again. */
  const requestMove: typeof moves.requestMove = (p, m, via) => {
    if (m.to === 'done') setClosedOpened(true)
    moves.requestMove(p, m, via)
  }
  const drag = useBoardDrag(board.data, requestMove)

  const { closed, closedTotal, cardsOf, counts } = useBoardCards(board.data, closedPages, filter, closedShown)

  return (
    <div className="board-page">
      <BoardTop
        votes={moves.votes}
        onShow={({ id, stage }) => {
          const column = columnOf(stage)
          filter.clear()
          setTab(column)
          moves.focusCard({ id, stage: column, on: 'card' })
        }}
      />
      <BoardFilters
        filter={filter}
        wards={wards.data}
        hint={isManager ? (phone ? t('hintPhone') : t('hintDrag')) : null}
      />
      <p className="board-notice" role="status" aria-live="polite" data-testid="board-notice">
        {moves.announcement}
      </p>
      {!shown && !board.error && <Loading label={t('loading')} />}
      <ErrorMessage error={board.error} />
      {shown && (
        <DndContext
          sensors={drag.sensors}
          onDragStart={drag.onDragStart}
          onDragEnd={drag.onDragEnd}
          onDragCancel={drag.onDragCancel}
          accessibility={{
            announcements: drag.announcements,
            screenReaderInstructions: { draggable: t('dnd.instructions') },
          }}
        >
          {phone && <StageTabs counts={counts} selected={tab} onSelect={setTab} />}
          <div className={`board ${phone ? 'board-tabbed' : ''}`} aria-busy={board.isFetching}>
            {(phone ? [tab] : COLUMNS).map((stage) => (
              <StageColumn key={stage} stage={stage} count={counts[stage]} refuse={drag.refuses(stage)} tabbed={phone}>
                {stage === 'done' ? (
                  <ClosedColumn
                    closed={closed}
                    total={closedTotal}
                    shown={closedShown}
                    pages={closedPages}
                    onOpen={() => setClosedOpened(true)}
                    wards={wards.data}
                    stageName={moves.stageName}
                  />
                ) : (
                  <>
                    {cardsOf(stage).length === 0 && <p className="empty">{t('empty.stage')}</p>}
                    {cardsOf(stage).map((p) => (
                      <BoardCard
                        key={p.id}
                        proposal={p}
                        voting={moves.votingOf(p)}
                        votes={moves.votes}
                        draggable={isManager && !phone}
                        onMove={(m) => requestMove(p, m, 'menu')}
                      />
                    ))}
                  </>
                )}
              </StageColumn>
            ))}
          </div>
          <DragOverlay dropAnimation={null}>
            {drag.activeCard ? (
              <ProposalCard
                proposal={drag.activeCard}
                wardLabel={wardName(wards.data, drag.activeCard.ward_id)}
                voting={moves.votingOf(drag.activeCard)}
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
