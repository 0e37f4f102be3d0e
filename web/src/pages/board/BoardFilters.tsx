import { useTranslation } from 'react-i18next'
import type { Ward } from '../../api/types'

/** Search by name or calling, one ward and one kind; the drag hint for those who may move cards. */
export function BoardFilters({
  search,
  onSearch,
  ward,
  onWard,
  wards,
  kind,
  onKind,
  hint,
}: {
  search: string
  onSearch(value: string): void
  ward: string
  onWard(value: string): void
  wards: Ward[] | undefined
  /** '' for every kind, else call, release or ordination (docs/api-reference.md §18). */
  kind: string
  onKind(value: string): void
  hint: string | null
}) {
  const { t } = useTranslation('board')
  return (
    <div className="filters" role="search">
      <div className="field field-inline">
        <label htmlFor="board-search">{t('filters.search')}</label>
        <input
          id="board-search"
          type="search"
          placeholder={t('filters.searchPlaceholder')}
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
      <div className="field field-inline">
        <label htmlFor="board-ward">{t('filters.ward')}</label>
        <select id="board-ward" value={ward} onChange={(e) => onWard(e.target.value)}>
          <option value="">{t('filters.allWards')}</option>
          {(wards ?? []).map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-inline">
        <label htmlFor="board-kind">{t('filters.kind')}</label>
        <select id="board-kind" value={kind} onChange={(e) => onKind(e.target.value)}>
          <option value="">{t('filters.allKinds')}</option>
          {(['call', 'release', 'ordination'] as const).map((k) => (
            <option key={k} value={k}>
              {t(`filters.kinds.${k}`)}
            </option>
          ))}
        </select>
      </div>
      {hint && <p className="muted small hint-drag">{hint}</p>}
    </div>
  )
}
