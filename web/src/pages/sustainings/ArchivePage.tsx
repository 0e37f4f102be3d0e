import { useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useWards, wardName } from '../../api/wards'
import { useArchive, useDownloadCsv, type ArchiveFilters } from '../../api/sustainings'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'

const PAGE = 50

/** Finished and declined proposals, filtered, with their CSV for the church's records (docs/api-reference.md §12). */
export default function ArchivePage() {
  const { t, i18n } = useTranslation('sustainings')
  const notify = useNotify()
  const wards = useWards()
  const [filters, setFilters] = useState<ArchiveFilters>({})
  const [offset, setOffset] = useState(0)
  const archive = useArchive({ ...filters, limit: PAGE, offset })
  const download = useDownloadCsv()
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' })

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
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label={t('archive.filters')}>
        <label className="field field-inline">
          <span>{t('archive.stage')}</span>
          <select
            value={filters.stage ?? ''}
            onChange={(e) => update({ stage: (e.target.value || undefined) as ArchiveFilters['stage'] })}
          >
            <option value="">{t('archive.both')}</option>
            <option value="done">{t('archive.done')}</option>
            <option value="declined">{t('archive.declined')}</option>
          </select>
        </label>
        <label className="field field-inline">
          <span>{t('archive.from')}</span>
          <input type="date" value={filters.from ?? ''} onChange={(e) => update({ from: e.target.value })} />
        </label>
        <label className="field field-inline">
          <span>{t('archive.to')}</span>
          <input type="date" value={filters.to ?? ''} onChange={(e) => update({ to: e.target.value })} />
        </label>
        <label className="field field-inline">
          <span>{t('archive.ward')}</span>
          <select
            value={filters.ward_id ?? ''}
            onChange={(e) => update({ ward_id: e.target.value ? Number(e.target.value) : undefined })}
          >
            <option value="">{t('archive.allWards')}</option>
            {(wards.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-inline">
          <span>{t('archive.kind')}</span>
          <select
            value={filters.kind ?? ''}
            onChange={(e) => update({ kind: (e.target.value || undefined) as ArchiveFilters['kind'] })}
          >
            <option value="">{t('archive.allKinds')}</option>
            {(['call', 'release', 'ordination'] as const).map((k) => (
              <option key={k} value={k}>
                {t(`archive.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-inline">
          <span>{t('archive.calling')}</span>
          <input type="search" value={filters.calling ?? ''} onChange={(e) => update({ calling: e.target.value })} />
        </label>
        <label className="field field-inline">
          <span>{t('archive.search')}</span>
          <input type="search" value={filters.q ?? ''} onChange={(e) => update({ q: e.target.value })} />
        </label>
      </form>
      {archive.isLoading && <Loading label={t('loading')} />}
      {archive.error && <ErrorMessage error={archive.error} />}
      {archive.data && archive.data.items.length === 0 && <Empty>{t('archive.empty')}</Empty>}
      {archive.data && archive.data.items.length > 0 && (
        <div className="card table-scroll">
          <table className="table" data-testid="archive-table">
            <thead>
              <tr>
                <th scope="col">{t('archive.name')}</th>
                <th scope="col">{t('archive.calling')}</th>
                <th scope="col">{t('archive.ward')}</th>
                <th scope="col">{t('archive.stage')}</th>
                <th scope="col">{t('archive.closed')}</th>
              </tr>
            </thead>
            <tbody>
              {archive.data.items.map((p) => (
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
                  <td>{wardName(wards.data, p.ward_id)}</td>
                  <td>{p.stage === 'done' ? t('archive.done') : t('archive.declined')}</td>
                  <td>{date.format(new Date(p.stage_changed_at))}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {filters.stage && archive.data.total > PAGE && (
            <div className="pager">
              <button
                type="button"
                className="button"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - PAGE))}
              >
                {t('archive.previous')}
              </button>
              <span className="muted small">
                {t('archive.range', {
                  from: offset + 1,
                  to: Math.min(offset + PAGE, archive.data.total),
                  total: archive.data.total,
                })}
              </span>
              <button
                type="button"
                className="button"
                disabled={offset + PAGE >= archive.data.total}
                onClick={() => setOffset(offset + PAGE)}
              >
                {t('archive.next')}
              </button>
            </div>
          )}
          {!filters.stage && archive.data.total > archive.data.items.length && (
            <p className="muted small">{t('archive.truncated', { shown: archive.data.items.length })}</p>
          )}
        </div>
      )}
    </div>
  )
}
