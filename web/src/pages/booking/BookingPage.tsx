import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useBook, useBookingPage, useCancelBooking, type BookingSlot } from '../../api/appointments'
import { ApiError } from '../../api/client'
import { ConfirmDialog } from '../../components/Dialog'
import { Empty, ErrorMessage, Loading } from '../../components/ui'
import './booking.css'

/** The link's token: after `#`, so it never reaches a server log (docs/api-reference.md §18). */
const tokenOf = () => (typeof window === 'undefined' ? '' : window.location.hash.replace(/^#/, ''))

/**
 * The booking page for someone without an account: the interviewer's free
 * times in the stake's time zone, one tap to pick, one to confirm; then the
 * booked time with "change" and "cancel". Nothing else of the interviewer's
 * calendar is ever shown.
 */
export default function BookingPage() {
  const { t, i18n } = useTranslation('booking')
  const [token] = useState(tokenOf)
  const page = useBookingPage(token)
  const [picked, setPicked] = useState<string | null>(null)
  const [changing, setChanging] = useState(false)
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const [taken, setTaken] = useState(false)
  useEffect(() => {
    document.title = `${t('title')} · ${t('common:appName')}`
  }, [t])

  const data = page.data
  const zone = data?.timezone
  const dayFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' }),
    [i18n.language, zone],
  )
  const timeFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { timeZone: zone, hour: 'numeric', minute: '2-digit' }),
    [i18n.language, zone],
  )
  const when = (at: string) => `${dayFormat.format(new Date(at))}, ${timeFormat.format(new Date(at))}`

  const book = useBook(token, {
    onSuccess: (_page, vars) => {
      setPicked(null)
      setChanging(false)
      setTaken(false)
      setNotice(vars.move ? t('moved') : t('booked'))
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'slot_taken') {
        setPicked(null)
        setTaken(true)
      }
    },
  })
  const cancel = useCancelBooking(token, {
    onSuccess: () => {
      setConfirmCancel(false)
      setNotice(t('cancelled'))
    },
  })

  const days = useMemo(() => {
    const groups = new Map<string, BookingSlot[]>()
    for (const slot of data?.slots ?? []) {
      const day = dayFormat.format(new Date(slot.starts_at))
      groups.set(day, [...(groups.get(day) ?? []), slot])
    }
    return [...groups.entries()]
  }, [data?.slots, dayFormat])

  if (!token) return <Shell title={t('title')}>{<Empty>{t('noLink')}</Empty>}</Shell>
  if (page.isLoading) return <Shell title={t('title')}>{<Loading />}</Shell>
  if (page.error || !data) {
    const gone = page.error instanceof ApiError && page.error.status === 404
    return (
      <Shell title={t('title')}>{gone ? <Empty>{t('invalid')}</Empty> : <ErrorMessage error={page.error} />}</Shell>
    )
  }

  const choosing = !data.booking || changing
  const interviewer = data.interviewer ?? t('anyPresidency')
  return (
    <Shell title={t('title')}>
      <p className="booking-intro">
        {t('intro', { name: data.name, kind: t(`kind.${data.kind}`), interviewer, minutes: data.duration_minutes })}
      </p>
      <div aria-live="polite">
        {notice && <p className="notice notice-success">{notice}</p>}
        {taken && (
          <p className="notice notice-error" role="alert">
            {t('taken')}
          </p>
        )}
      </div>

      {data.booking && (
        <section className="card booking-current" aria-labelledby="booking-current">
          <h2 id="booking-current">{t('yourTime')}</h2>
          <p className="booking-when">{when(data.booking.starts_at)}</p>
          {!changing && (
            <div className="booking-actions">
              <button type="button" className="button" onClick={() => setChanging(true)}>
                {t('change')}
              </button>
              <button type="button" className="button button-danger" onClick={() => setConfirmCancel(true)}>
                {t('cancel')}
              </button>
            </div>
          )}
        </section>
      )}

      {choosing && (
        <section className="card" aria-labelledby="booking-free">
          <h2 id="booking-free">{changing ? t('pickNew') : t('pick')}</h2>
          <p className="muted">{t('zone', { zone: data.timezone })}</p>
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
                    {timeFormat.format(new Date(slot.starts_at))}
                  </button>
                ))}
              </div>
            </fieldset>
          ))}
          {!taken && book.error && <ErrorMessage error={book.error} />}
          <div className="booking-actions booking-sticky">
            {changing && (
              <button type="button" className="button" onClick={() => (setChanging(false), setPicked(null))}>
                {t('keep')}
              </button>
            )}
            <button
              type="button"
              className="button button-primary"
              disabled={!picked || book.isPending}
              onClick={() => picked && book.mutate({ starts_at: picked, move: Boolean(data.booking) })}
            >
              {picked ? t(data.booking ? 'confirmMove' : 'confirmBook', { when: when(picked) }) : t('pickFirst')}
            </button>
          </div>
        </section>
      )}

      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title={t('cancelTitle')}
        message={data.booking ? t('cancelMessage', { when: when(data.booking.starts_at) }) : ''}
        confirmLabel={t('cancelConfirm')}
        danger
        busy={cancel.isPending}
        error={cancel.error ? <ErrorMessage error={cancel.error} /> : undefined}
        onConfirm={() => cancel.mutate()}
      />
    </Shell>
  )
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="public-page booking-page">
      <header className="topbar">
        <span className="brand">{t('appShort')}</span>
      </header>
      <main id="main" className="content">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  )
}
