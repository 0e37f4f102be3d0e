import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { BookingPage, BookingSlot } from '../../api/appointments'
import { Empty, ErrorMessage } from '../../components/ui'
import { formatDay, formatTime } from '../../i18n/format'

/** The free times by day, in the stake's zone; one to pick, then one button to book (or move to) it. */
export function BookingSlots(props: {
  data: BookingPage
  changing: boolean
  busy: boolean
  error: unknown
  when(at: string): string
  onKeep(): void
  onBook(startsAt: string): void
}) {
  const { t } = useTranslation('booking')
  const { data } = props
  const zone = data.timezone
  const [picked, setPicked] = useState<string | null>(null)
  const days = useMemo(() => {
    const groups = new Map<string, BookingSlot[]>()
    for (const slot of data.slots) {
      const day = formatDay(slot.starts_at, zone)
      groups.set(day, [...(groups.get(day) ?? []), slot])
    }
    return [...groups.entries()]
  }, [data.slots, zone])

  return (
    <section className="card" aria-labelledby="booking-free">
      <h2 id="booking-free">{props.changing ? t('pickNew') : t('pick')}</h2>
      {days.length === 0 && <Empty>{t('none')}</Empty>}
      {days.map(([day, slots]) => (
        <fieldset key={day} className="booking-day">
          <legend>{day}</legend>
          <div className="booking-slots">
            {slots.map((slot) => (
              <button
                key={slot.starts_at}
                type="button"
                className={`button booking-slot${picked === slot.starts_at ? ' button-primary' : ''}`}
                aria-pressed={picked === slot.starts_at}
                onClick={() => setPicked(slot.starts_at)}
              >
                {formatTime(slot.starts_at, zone)}
              </button>
            ))}
          </div>
        </fieldset>
      ))}
      {Boolean(props.error) && <ErrorMessage error={props.error} />}
      <div className="booking-actions booking-sticky">
        {props.changing && (
          <button type="button" className="button" onClick={props.onKeep}>
            {t('keep')}
          </button>
        )}
        <button
          type="button"
          className="button button-primary"
          disabled={!picked || props.busy}
          onClick={() => picked && (props.onBook(picked), setPicked(null))}
        >
          {picked ? t(data.booking ? 'confirmMove' : 'confirmBook', { when: props.when(picked) }) : t('pickFirst')}
        </button>
      </div>
    </section>
  )
}
