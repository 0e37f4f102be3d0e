import { useMemo, useState, useSyncExternalStore } from 'react'
import { useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useSundayPlan, type Sunday } from '../../api/appointments'
import { useStake } from '../../api/stake'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { comingSunday, formatMonth } from '../../i18n/format'
import { SundayCard } from './SundayCard'
import { SundayEditor } from './SundayEditor'
import './sundays.css'

const PHONE_QUERY = '(max-width: 720px)'
function usePhone(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(PHONE_QUERY)
      mq.addEventListener('change', onChange)
      return () => mq.removeEventListener('change', onChange)
    },
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  )
}

/**
 * The stake's Sunday plan (docs/api-reference.md §18): a month of Sundays side
 * by side (a phone: one Sunday at a time), each with the high council's
 * speakers, the presidency's visits and conference sessions, and a warning
 * when someone is in two places at once. It opens on the coming Sunday of the
 * stake's calendar (its zone, not the browser's).
 */
export default function SundayPlanPage() {
  const { t } = useTranslation('sundays')
  const me = useMe()
  const phone = usePhone()
  const [params, setParams] = useSearchParams()
  const next = comingSunday(useStake().data?.timezone)
  const year = Number(params.get('year')) || Number(next.slice(0, 4))
  const month = Number(params.get('month')) || (year === Number(next.slice(0, 4)) ? Number(next.slice(5, 7)) : 1)
  const plan = useSundayPlan(year)
  const [chosen, setChosen] = useState<number | null>(null)
  const [editing, setEditing] = useState<Sunday | null>(null)
  const manager = can(me, 'speaking.manage')

  const go = (y: number, m: number) => {
    const wrapped = m < 1 ? { y: y - 1, m: 12 } : m > 12 ? { y: y + 1, m: 1 } : { y, m }
    setChosen(0)
    setParams({ year: String(wrapped.y), month: String(wrapped.m) }, { replace: true })
  }
  const sundays = useMemo(
    () => plan.data?.sundays.filter((s) => Number(s.date.slice(5, 7)) === month) ?? [],
    [plan.data, month],
  )
  const index = Math.max(0, Math.min(chosen ?? sundays.findIndex((s) => s.date >= next), sundays.length - 1))
  const shown = phone ? sundays.slice(index, index + 1) : sundays

  return (
    <>
      <PageHeader title={t('title')} docTitle={t('title')} />
      <div className="sunday-nav" role="group" aria-label={t('month')}>
        <button type="button" className="button" onClick={() => go(year, month - 1)} aria-label={t('previousMonth')}>
          <span aria-hidden="true">‹</span>
          <span className="sunday-nav-words"> {t('previousMonth')}</span>
        </button>
        <h2 className="sunday-month">{formatMonth(month, 'long', year)}</h2>
        <button type="button" className="button" onClick={() => go(year, month + 1)} aria-label={t('nextMonth')}>
          <span className="sunday-nav-words">{t('nextMonth')} </span>
          <span aria-hidden="true">›</span>
        </button>
      </div>
      {plan.isLoading && <Loading />}
      <ErrorMessage error={plan.error} />
      {plan.data && phone && sundays.length > 1 && (
        <div className="sunday-nav" role="group" aria-label={t('sunday')}>
          <button
            type="button"
            className="button"
            disabled={index <= 0}
            onClick={() => setChosen(index - 1)}
            aria-label={t('previousSunday')}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <span className="muted sunday-position">{t('position', { n: index + 1, of: sundays.length })}</span>
          <button
            type="button"
            className="button"
            disabled={index >= sundays.length - 1}
            onClick={() => setChosen(index + 1)}
            aria-label={t('nextSunday')}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
      {plan.data && (
        <div className={`sunday-grid${phone ? ' sunday-grid-one' : ''}`}>
          {shown.map((s) => (
            <SundayCard
              key={s.date}
              sunday={s}
              plan={plan.data}
              coming={s.date === next}
              onEdit={manager ? () => setEditing(s) : undefined}
            />
          ))}
        </div>
      )}
      {editing && plan.data && (
        <SundayEditor
          key={editing.date}
          sunday={editing}
          plan={plan.data}
          year={year}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  )
}
