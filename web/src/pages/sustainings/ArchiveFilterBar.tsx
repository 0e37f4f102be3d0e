import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ArchiveFilters } from '../../api/sustainings'
import type { Ward } from '../../api/types'

function ArchiveField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="field field-inline">
      <span>{label}</span>
      {children}
    </label>
  )
}

const KINDS = ['call', 'release', 'ordination'] as const

/** The archive's filters; each applies as it changes (`update` drops an emptied one). */
export function ArchiveFilterBar({
  filters,
  wards,
  update,
}: {
  filters: ArchiveFilters
  wards: readonly Ward[]
  update(patch: Partial<ArchiveFilters>): void
}) {
  const { t } = useTranslation('sustainings')
  const text = (key: 'from' | 'to' | 'calling' | 'q', type: 'date' | 'search') => (
    <input type={type} value={filters[key] ?? ''} onChange={(e) => update({ [key]: e.target.value })} />
  )
  return (
    <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label={t('archive.filters')}>
      <ArchiveField label={t('archive.stage')}>
        <select
          value={filters.stage ?? ''}
          onChange={(e) => update({ stage: (e.target.value || undefined) as ArchiveFilters['stage'] })}
        >
          <option value="">{t('archive.both')}</option>
          <option value="done">{t('archive.done')}</option>
          <option value="declined">{t('archive.declined')}</option>
        </select>
      </ArchiveField>
      <ArchiveField label={t('archive.from')}>{text('from', 'date')}</ArchiveField>
      <ArchiveField label={t('archive.to')}>{text('to', 'date')}</ArchiveField>
      <ArchiveField label={t('archive.ward')}>
        <select
          value={filters.ward_id ?? ''}
          onChange={(e) => update({ ward_id: e.target.value ? Number(e.target.value) : undefined })}
        >
          <option value="">{t('archive.allWards')}</option>
          {wards.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </ArchiveField>
      <ArchiveField label={t('archive.kind')}>
        <select
          value={filters.kind ?? ''}
          onChange={(e) => update({ kind: (e.target.value || undefined) as ArchiveFilters['kind'] })}
        >
          <option value="">{t('archive.allKinds')}</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`archive.kinds.${k}`)}
            </option>
          ))}
        </select>
      </ArchiveField>
      <ArchiveField label={t('archive.calling')}>{text('calling', 'search')}</ArchiveField>
      <ArchiveField label={t('archive.search')}>{text('q', 'search')}</ArchiveField>
    </form>
  )
}
