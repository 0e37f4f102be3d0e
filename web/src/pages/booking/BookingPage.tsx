import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useBook, useBookingPage, useCancelBooking, type BookingPage as Page } from '../../api/appointments'
import { ApiError } from '../../api/client'
import { ConfirmDialog } from '../../components/Dialog'
import { Empty, ErrorMessage, Loading } from '../../components/ui'
import { formatDay, formatTime, zoneName } from '../../i18n/format'
import { BookingConfirmed } from './BookingConfirmed'
import { BookingSlots } from './BookingSlots'
import './booking.css'

/** The link's token: after `#`, so it never reaches a server log (docs/api-reference.md §18). */
const tokenOf = () => (typeof window === 'undefined' ? '' : window.location.hash.replace(/^#/, ''))

/**
 * The booking page for someone without an account: the interviewer's free
 * times in the stake's time zone (named, so a visitor from elsewhere knows
 * whose clock it is), one tap to pick, one to confirm; then the booked time
 * and place with add-to-calendar, "change" and "cancel". Nothing else of the
 * interviewer's calendar is ever shown.
 */
export default function BookingPage() {
  const { t } = useTranslation('booking')
  const [token] = useState(tokenOf)
  const page = useBookingPage(token)
  useEffect(() => {
    document.title = `${t('title')} · ${t('common:appName')}`
  }, [t])

  if (!token) return <Shell title={t('title')}>{<Empty>{t('noLink')}</Empty>}</Shell>
  if (page.isLoading) return <Shell title={t('title')}>{<Loading />}</Shell>
  if (page.error || !page.data) {
    const gone = page.error instanceof ApiError && page.error.status === 404
    return (
      <Shell title={t('title')}>{gone ? <Empty>{t('invalid')}</Empty> : <ErrorMessage error={page.error} />}</Shell>
    )
  }
  return <Booking token={token} data={page.data} />
}

function Booking({ token, data }: { token: string; data: Page }) {
  const { t } = useTranslation('booking')
  const [changing, setChanging] = useState(false)
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const [taken, setTaken] = useState(false)
  const zone = data.timezone
  const when = (at: string) => `${formatDay(at, zone)}, ${formatTime(at, zone)}`

  const book = useBook(token, {
    onSuccess: (_page, vars) => {
      setChanging(false)
      setTaken(false)
      // A new booking is announced by the page's own heading; a move by a notice.
      setNotice(vars.move ? t('moved') : null)
    },
    onError: (error) => setTaken(error instanceof ApiError && error.code === 'slot_taken'),
  })
  const cancel = useCancelBooking(token, {
    onSuccess: () => {
      setConfirmCancel(false)
      setNotice(t('cancelled'))
    },
  })

  const facts = { name: data.name, kind: t(`kind.${data.kind}`), minutes: data.duration_minutes }
  const interviewer = data.interviewer ?? t('anyPresidency')
  return (
    <Shell title={data.booking && !changing ? t('titleBooked') : t('title')}>
      <p className="booking-intro">{t(data.booking ? 'introBooked' : 'intro', { ...facts, interviewer })}</p>
      <p className="muted booking-zone">{t('zone', { zone: zoneName(zone) })}</p>
      <div aria-live="polite">
        {notice && <p className="notice notice-success">{notice}</p>}
        {taken && (
          <p className="notice notice-error" role="alert">
            {t('taken')}
          </p>
        )}
      </div>
      {data.booking && (
        <BookingConfirmed
          token={token}
          when={when(data.booking.starts_at)}
          place={data.place}
          changing={changing}
          onChange={() => (setChanging(true), setNotice(null))}
          onCancel={() => setConfirmCancel(true)}
        />
      )}
      {(!data.booking || changing) && (
        <BookingSlots
          data={data}
          changing={changing}
          busy={book.isPending}
          error={!taken ? book.error : null}
          when={when}
          onKeep={() => setChanging(false)}
          onBook={(startsAt) => book.mutate({ starts_at: startsAt, move: Boolean(data.booking) })}
        />
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
