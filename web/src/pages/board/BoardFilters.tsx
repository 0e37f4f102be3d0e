import { useTranslation } from 'react-i18next'
import type { Ward } from '../../api/types'
import type { useBoardFilter } from './useBoardFilter'

/**
 * Search by name or calling, one ward and one kind ('' for every kind, else
 * call, release or ordination: docs/api-reference.md §18); the drag hint for
 * those who may move cards.
 */
export function BoardFilters({
  filter,
  wards,
  hint,
}: {
  filter: ReturnType<typeof useBoardFilter>
  wards: Ward[] | undefined
  hint: string | null
}) {
  const { t } = useTranslation('board')
  const { search, setSearch: onSearch, ward, setWard: onWard, kind, setKind: onKind } = filter
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
