import { useTranslation } from 'react-i18next'
import type { useClosedCards } from '../../api/proposals'
import { wardName } from '../../api/wards'
import type { Proposal, Stage, Ward } from '../../api/types'
import { ErrorMessage, Loading } from '../../components/ui'
import { ProposalCard } from './ProposalCard'

/** The "Closed recently" column: a count and a button until opened, then its cards page by page. */
export function ClosedColumn({
  closed,
  total,
  shown,
  pages,
  onOpen,
  wards,
  stageName,
}: {
  closed: Proposal[]
  total: number
  shown: boolean
  pages: ReturnType<typeof useClosedCards>
  onOpen(): void
  wards: Ward[] | undefined
  stageName(stage: Stage): string
}) {
  const { t } = useTranslation('board')
  return (
    <>
      {total === 0 && closed.length === 0 && <p className="empty">{t('empty.closed')}</p>}
      {!shown && total > 0 && (
        <button type="button" className="button button-wrap" onClick={onOpen}>
          {t('closedColumn.show', { count: total })}
        </button>
      )}
      {shown && pages.isLoading && <Loading label={t('closedColumn.loading')} />}
      <ErrorMessage error={pages.error} />
      {closed.map((p) => (
        <div key={p.id} className={`closed-card ${p.stage === 'declined' ? 'is-declined' : ''}`}>
          <ProposalCard proposal={p} wardLabel={`${wardName(wards, p.ward_id)} · ${stageName(p.stage)}`} />
        </div>
      ))}
      {shown && pages.hasNextPage && (
        <button
          type="button"
          className="button button-wrap"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {t('closedColumn.more')}
        </button>
      )}
    </>
  )
}
