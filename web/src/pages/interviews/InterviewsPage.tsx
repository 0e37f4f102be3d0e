import { useTranslation } from 'react-i18next'
import { useAvailability, useBookedInterviews } from '../../api/appointments'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { formatDay, formatTime } from '../../i18n/format'
import { AvailabilityForm } from './AvailabilityForm'
import { OfferForm } from './OfferForm'
import './interviews.css'

/**
 * The interviewer's side of §18: weekly interview times and exceptions, a
 * booking link to send, and the interviews booked so far.
 */
export default function InterviewsPage() {
  const { t } = useTranslation('interviews')
  const availability = useAvailability()
  return (
    <>
      <PageHeader title={t('title')} docTitle={t('title')} />
      <section className="card" aria-labelledby="iv-times">
        <h2 id="iv-times">{t('times')}</h2>
        {availability.isLoading && <Loading />}
        <ErrorMessage error={availability.error} />
        {availability.data && <AvailabilityForm data={availability.data} />}
      </section>
      <OfferForm />
      <Booked />
    </>
  )
}

function Booked() {
  const { t } = useTranslation('interviews')
  const booked = useBookedInterviews()
  return (
    <section className="card" aria-labelledby="iv-booked">
      <h2 id="iv-booked">{t('booked')}</h2>
      {booked.isLoading && <Loading />}
      <ErrorMessage error={booked.error} />
      {booked.data && booked.data.length === 0 && <Empty>{t('noneBooked')}</Empty>}
      <ul className="plain-list">
        {booked.data?.map((a) => (
          <li key={a.id}>
            <strong>{`${formatDay(a.starts_at)}, ${formatTime(a.starts_at)}`}</strong> — {a.name}
          </li>
        ))}
      </ul>
    </section>
  )
}
