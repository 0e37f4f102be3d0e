import { useTranslation } from 'react-i18next'
import type { CalendarRow } from '../../api/types'
import { isVacant, vacantMonths } from './speakingCalendar'

/** What the marks of the grid mean, and how many months go to vacant seats. */
export function SpeakingLegend({
  rows,
  year,
  currentMonth,
  manager,
}: {
  rows: readonly CalendarRow[]
  year: number
  currentMonth: number | null
  manager: boolean
}) {
  const { t } = useTranslation('speaking')
  const vacancies = rows.filter(isVacant).length
  const months = vacantMonths(rows)
  return (
    <>
      <p className="muted small no-print legend">
        {currentMonth && (
          <span className="legend-item">
            <span className="swatch swatch-current" /> {t('legend.thisMonth')}
          </span>
        )}
        <span className="legend-item">
          <span className="swatch swatch-override" /> {t('legend.changed')}
        </span>
        <span className="legend-item">
          <span className="swatch swatch-mine" /> {t('legend.mine')}
        </span>
        {vacancies > 0 && (
          <span className="legend-item">
            <span className="swatch swatch-vacant" /> {t('legend.vacant', { count: vacancies })}
          </span>
        )}
        {manager && <span>{t('legend.select')}</span>}
        <span className="show-phone-inline">{t('legend.swipe')}</span>
      </p>
      {months > 0 && (
        <p className="small vacant-months" role="note" data-testid="vacant-months">
          {t('vacantMonths', { count: months, year })}
        </p>
      )}
    </>
  )
}
