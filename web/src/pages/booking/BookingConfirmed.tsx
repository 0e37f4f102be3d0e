import { useTranslation } from 'react-i18next'
import { bookingCalendarUrl } from '../../api/appointments'

/** A place that is a web address is a video call: shown as a link. */
const isLink = (place: string) => /^https?:\/\/\S+$/i.test(place)

/** The booked interview: when, where, add-to-calendar, change and cancel. */
export function BookingConfirmed(props: {
  token: string
  when: string
  place: string | null
  changing: boolean
  onChange(): void
  onCancel(): void
}) {
  const { t } = useTranslation('booking')
  const { place } = props
  return (
    <section className="card booking-current" aria-labelledby="booking-current">
      <h2 id="booking-current">{t('yourTime')}</h2>
      <dl className="booking-facts">
        <dt>{t('when')}</dt>
        <dd className="booking-when">{props.when}</dd>
        <dt>{t('place')}</dt>
        <dd>
          {!place ? (
            <span className="muted">{t('placeUnknown')}</span>
          ) : isLink(place) ? (
            <a href={place} target="_blank" rel="noopener noreferrer">
              {t('placeLink')}
            </a>
          ) : (
            place
          )}
        </dd>
      </dl>
      {!props.changing && (
        <div className="booking-actions">
          <a className="button" href={bookingCalendarUrl(props.token)} download="interview.ics">
            {t('addToCalendar')}
          </a>
          <button type="button" className="button" onClick={props.onChange}>
            {t('change')}
          </button>
          <button type="button" className="button button-danger" onClick={props.onCancel}>
            {t('cancel')}
          </button>
        </div>
      )}
    </section>
  )
}
