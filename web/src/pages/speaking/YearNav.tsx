import { useTranslation } from 'react-i18next'

/** Previous year, back to this year, next year, and print. */
export function YearNav({ year, thisYear, setYear }: { year: number; thisYear: number; setYear(y: number): void }) {
  const { t } = useTranslation('speaking')
  return (
    <div className="year-nav" role="group" aria-label={t('year.group')}>
      <button
        type="button"
        className="button"
        onClick={() => setYear(year - 1)}
        aria-label={t('year.previous', { year: year - 1 })}
      >
        ← {year - 1}
      </button>
      {year !== thisYear && (
        <button type="button" className="button" onClick={() => setYear(thisYear)}>
          {t('year.this')}
        </button>
      )}
      <button
        type="button"
        className="button"
        onClick={() => setYear(year + 1)}
        aria-label={t('year.next', { year: year + 1 })}
      >
        {year + 1} →
      </button>
      <button type="button" className="button no-print" onClick={() => window.print()}>
        {t('print')}
      </button>
    </div>
  )
}
