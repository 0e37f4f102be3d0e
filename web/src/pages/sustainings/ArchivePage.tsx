import { formatDate } from '../../i18n/format'
import { useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useWards, wardName } from '../../api/wards'
import { useArchive, useDownloadCsv, type ArchiveFilters } from '../../api/sustainings'
import type { Proposal, Ward } from '../../api/types'
import { DataTable, ListStates } from '../../components/lists'
import { useNotify } from '../../components/Notice'
import { PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { ArchiveFilterBar } from './ArchiveFilterBar'

const PAGE = 50

/** Finished and declined proposals, filtered, with their CSV for the church's records (docs/api-reference.md §12). */
export default function ArchivePage() {
  const { t } = useTranslation('sustainings')
  const notify = useNotify()
  const wards = useWards()
  const [filters, setFilters] = useState<ArchiveFilters>({})
  const [offset, setOffset] = useState(0)
  const archive = useArchive({ ...filters, limit: PAGE, offset })
  const download = useDownloadCsv()

  const update = (patch: Partial<ArchiveFilters>) => {
    setOffset(0)
    setFilters((f) => {
      const next: ArchiveFilters = { ...f, ...patch }
      for (const key of Object.keys(next) as (keyof ArchiveFilters)[]) {
        if (next[key] === '' || next[key] === undefined) delete next[key]
      }
      return next
    })
  }
  const total = archive.data?.total ?? 0

  return (
    <div>
      <PageHeader
        title={t('archive.title')}
        actions={
          <button
            type="button"
            className="button button-primary"
            disabled={download.isPending}
            onClick={() => download.mutate(filters, { onError: (e) => notify((e as Error).message, 'error') })}
          >
            {t('archive.download')}
          </button>
        }
      />
      <ArchiveFilterBar filters={filters} wards={wards.data ?? []} update={update} />
      <ListStates query={archive} items={archive.data?.items} empty={t('archive.empty')} loadingLabel={t('loading')}>
        {(items) => (
          <div className="card table-scroll">
            <ArchiveTable items={items} wards={wards.data} />
            {filters.stage && total > PAGE && <ArchivePager offset={offset} total={total} onOffset={setOffset} />}
            {!filters.stage && total > items.length && (
              <p className="muted small">{t('archive.truncated', { shown: items.length })}</p>
            )}
          </div>
        )}
      </ListStates>
    </div>
  )
}

function ArchiveTable({ items, wards }: { items: readonly Proposal[]; wards: Ward[] | undefined }) {
  const { t } = useTranslation('sustainings')
  return (
    <DataTable
      testId="archive-table"
      columns={[t('archive.name'), t('archive.calling'), t('archive.ward'), t('archive.stage'), t('archive.closed')]}
    >
      {items.map((p) => (
        <tr key={p.id}>
          <td>
            <Link to={ROUTES.proposal(p.id)}>
              {p.fname} {p.lname}
            </Link>
          </td>
          <td>
            {p.proposed_calling}
            {p.is_release && <span className="muted small"> ({t('archive.release')})</span>}
            {p.kind === 'ordination' && <span className="muted small"> ({t('archive.ordination')})</span>}
          </td>
          <td>{wardName(wards, p.ward_id)}</td>
          <td>{p.stage === 'done' ? t('archive.done') : t('archive.declined')}</td>
          <td>{formatDate(p.stage_changed_at)}</td>
        </tr>
      ))}
    </DataTable>
  )
}

/** Previous and next page of one closed stage (both stages together show one merged page). */
function ArchivePager({ offset, total, onOffset }: { offset: number; total: number; onOffset(offset: number): void }) {
  const { t } = useTranslation('sustainings')
  return (
    <div className="pager">
      <button
        type="button"
        className="button"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - PAGE))}
      >
        {t('archive.previous')}
      </button>
      <span className="muted small">
        {t('archive.range', { from: offset + 1, to: Math.min(offset + PAGE, total), total })}
      </span>
      <button
        type="button"
        className="button"
        disabled={offset + PAGE >= total}
        onClick={() => onOffset(offset + PAGE)}
      >
        {t('archive.next')}
      </button>
    </div>
  )
}
