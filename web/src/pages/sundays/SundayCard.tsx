import { useTranslation } from 'react-i18next'
import type { Sunday, SundayPlan } from '../../api/appointments'
import { fullName } from '../../auth/roles'
import { formatLocalDate, formatMinutes } from '../../i18n/format'

/** One Sunday: the presidency's visits and sessions, the high council's speakers, and who is in two places at once. */
export function SundayCard(props: { sunday: Sunday; plan: SundayPlan; coming: boolean; onEdit?: () => void }) {
  const { sunday, plan, onEdit } = props
  const { t } = useTranslation('sundays')
  const ward = (id: number | null) => plan.wards.find((w) => w.id === id)?.name ?? ''
  const day = formatLocalDate(sunday.date)
  const headingId = `sunday-${sunday.date}`
  return (
    <section className={`card sunday-card${props.coming ? ' sunday-card-coming' : ''}`} aria-labelledby={headingId}>
      <h3 id={headingId}>{day}</h3>
      {props.coming && <p className="badge sunday-coming">{t('coming')}</p>}
      {sunday.warnings.length > 0 && (
        <div className="notice notice-error" role="alert">
          <ul className="sunday-warnings">
            {sunday.warnings.map((w, i) => (
              <li key={i}>{t('twoPlaces', { name: fullName(w.user) })}</li>
            ))}
          </ul>
        </div>
      )}
      <h4>{t('presidency')}</h4>
      {sunday.assignments.length === 0 ? (
        <p className="muted">{t('noAssignments')}</p>
      ) : (
        <ul className="plain-list">
          {sunday.assignments.map((a) => (
            <li key={a.id}>
              <strong>{fullName(a.user)}</strong>:{' '}
              {a.kind === 'ward_visit'
                ? t('visit', { ward: ward(a.ward_id) })
                : t('conference', { session: a.session ?? '' })}{' '}
              <span className="muted">{formatMinutes(a.start_minute)}</span>
            </li>
          ))}
        </ul>
      )}
      <h4>{t('speakers')}</h4>
      {sunday.speakers.length === 0 ? (
        <p className="muted">{t('noSpeakers')}</p>
      ) : (
        <ul className="plain-list">
          {sunday.speakers.map((s) => (
            <li key={`${s.user.id}-${s.ward_id}`}>
              <strong>{fullName(s.user)}</strong>: {ward(s.ward_id)}{' '}
              <span className="muted">{formatMinutes(s.start_minute)}</span>
            </li>
          ))}
        </ul>
      )}
      {onEdit && (
        <button type="button" className="button button-small" onClick={onEdit} aria-label={t('editLabel', { day })}>
          {t('edit')}
        </button>
      )}
    </section>
  )
}
