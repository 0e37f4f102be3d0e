import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  useAvailability,
  useBookedInterviews,
  useCreateOffer,
  useSaveAvailability,
  type Availability,
  type OfferInput,
} from '../../api/appointments'
import { useMe } from '../../auth/AuthProvider'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Field, Loading, minutesToTime, PageHeader, timeToMinutes } from '../../components/ui'
import './interviews.css'
import { DurationField } from './DurationField'

interface WindowRow {
  weekday: string
  start: string
  end: string
}
interface ExceptionRow {
  date: string
  start: string
  end: string
  open: string
}

const toMinute = (t: string) => (t === '24:00' ? 1440 : (timeToMinutes(t) ?? 0))

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

function AvailabilityForm({ data }: { data: Availability }) {
  const { t, i18n } = useTranslation('interviews')
  const notify = useNotify()
  const days = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' })
    return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2026, 2, 1 + i))))
  }, [i18n.language])
  const [weekly, setWeekly] = useState<WindowRow[]>(() =>
    data.weekly.map((w) => ({
      weekday: String(w.weekday),
      start: minutesToTime(w.start_minute),
      end: minutesToTime(w.end_minute),
    })),
  )
  const [exceptions, setExceptions] = useState<ExceptionRow[]>(() =>
    data.exceptions.map((e) => ({
      date: e.date,
      start: minutesToTime(e.start_minute),
      end: minutesToTime(e.end_minute),
      open: e.open ? 'open' : 'closed',
    })),
  )
  const save = useSaveAvailability({ onSuccess: () => notify(t('saved'), 'success') })
  const submit = () =>
    save.mutate({
      weekly: weekly.map((w) => ({
        weekday: Number(w.weekday),
        start_minute: toMinute(w.start),
        end_minute: toMinute(w.end),
      })),
      exceptions: exceptions.map((e) => ({
        date: e.date,
        start_minute: toMinute(e.start),
        end_minute: toMinute(e.end),
        open: e.open === 'open',
      })),
    })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <p className="muted">{t('zone', { zone: data.timezone })}</p>
      <h3>{t('weekly')}</h3>
      {weekly.length === 0 && <p className="muted">{t('noWeekly')}</p>}
      {weekly.map((w, i) => (
        <fieldset key={i} className="interview-row">
          <legend>{t('window', { n: i + 1 })}</legend>
          <Field label={t('weekday')}>
            <select
              value={w.weekday}
              onChange={(e) => setWeekly(weekly.map((x, j) => (j === i ? { ...x, weekday: e.target.value } : x)))}
            >
              {days.map((d, n) => (
                <option key={n} value={n}>
                  {d}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('from')}>
            <input
              type="time"
              step={900}
              required
              value={w.start}
              onChange={(e) => setWeekly(weekly.map((x, j) => (j === i ? { ...x, start: e.target.value } : x)))}
            />
          </Field>
          <Field label={t('to')}>
            <input
              type="time"
              step={900}
              required
              value={w.end}
              onChange={(e) => setWeekly(weekly.map((x, j) => (j === i ? { ...x, end: e.target.value } : x)))}
            />
          </Field>
          <button
            type="button"
            className="button button-small"
            onClick={() => setWeekly(weekly.filter((_, j) => j !== i))}
          >
            {t('remove')}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="button"
        onClick={() => setWeekly([...weekly, { weekday: '2', start: '18:00', end: '20:00' }])}
      >
        {t('addWindow')}
      </button>
      <h3>{t('exceptions')}</h3>
      {exceptions.map((x, i) => (
        <fieldset key={i} className="interview-row">
          <legend>{t('exception', { n: i + 1 })}</legend>
          <Field label={t('date')}>
            <input
              type="date"
              required
              value={x.date}
              onChange={(e) => setExceptions(exceptions.map((y, j) => (j === i ? { ...y, date: e.target.value } : y)))}
            />
          </Field>
          <Field label={t('from')}>
            <input
              type="time"
              step={900}
              required
              value={x.start}
              onChange={(e) => setExceptions(exceptions.map((y, j) => (j === i ? { ...y, start: e.target.value } : y)))}
            />
          </Field>
          <Field label={t('to')}>
            <input
              type="time"
              step={900}
              required
              value={x.end}
              onChange={(e) => setExceptions(exceptions.map((y, j) => (j === i ? { ...y, end: e.target.value } : y)))}
            />
          </Field>
          <Field label={t('exceptionKind')}>
            <select
              value={x.open}
              onChange={(e) => setExceptions(exceptions.map((y, j) => (j === i ? { ...y, open: e.target.value } : y)))}
            >
              <option value="closed">{t('closed')}</option>
              <option value="open">{t('open')}</option>
            </select>
          </Field>
          <button
            type="button"
            className="button button-small"
            onClick={() => setExceptions(exceptions.filter((_, j) => j !== i))}
          >
            {t('remove')}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="button"
        onClick={() => setExceptions([...exceptions, { date: '', start: '00:00', end: '24:00', open: 'closed' }])}
      >
        {t('addException')}
      </button>
      <ErrorMessage error={save.error} />
      <div className="dialog-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? t('common:working') : t('saveTimes')}
        </button>
      </div>
    </form>
  )
}

function OfferForm() {
  const { t } = useTranslation('interviews')
  const me = useMe()
  const [kind, setKind] = useState<OfferInput['kind']>('temple_recommend')
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [who, setWho] = useState('me')
  const [duration, setDuration] = useState('30')
  const [url, setUrl] = useState<string | null>(null)
  const create = useCreateOffer({ onSuccess: (created) => setUrl(created.url) })
  return (
    <section className="card" aria-labelledby="iv-offer">
      <h2 id="iv-offer">{t('offer')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          setUrl(null)
          create.mutate({
            kind,
            name: name.trim() || null,
            email: email.trim() || null,
            phone: phone.trim() || null,
            interviewer_id: who === 'me' ? (me?.id ?? null) : null,
            duration_minutes: Number(duration),
          })
        }}
      >
        <Field label={t('kind')}>
          <select value={kind} onChange={(e) => setKind(e.target.value as OfferInput['kind'])}>
            <option value="temple_recommend">{t('kindTemple')}</option>
            <option value="ordination">{t('kindOrdination')}</option>
            <option value="other">{t('kindOther')}</option>
          </select>
        </Field>
        <Field label={t('name')}>
          <input value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('email')} hint={t('emailHint')}>
          <input type="email" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('phone')}>
          <input type="tel" value={phone} maxLength={40} onChange={(e) => setPhone(e.target.value)} />
        </Field>
        <Field label={t('interviewer')}>
          <select value={who} onChange={(e) => setWho(e.target.value)}>
            <option value="me">{t('me')}</option>
            <option value="any">{t('anyPresidency')}</option>
          </select>
        </Field>
        <DurationField value={duration} onChange={setDuration} />
        <ErrorMessage error={create.error} />
        <div className="dialog-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {t('makeLink')}
          </button>
        </div>
      </form>
      {url && (
        <Field label={t('link')} hint={t('linkHint')}>
          <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        </Field>
      )}
    </section>
  )
}

function Booked() {
  const { t, i18n } = useTranslation('interviews')
  const booked = useBookedInterviews()
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' })
  return (
    <section className="card" aria-labelledby="iv-booked">
      <h2 id="iv-booked">{t('booked')}</h2>
      {booked.isLoading && <Loading />}
      <ErrorMessage error={booked.error} />
      {booked.data && booked.data.length === 0 && <Empty>{t('noneBooked')}</Empty>}
      <ul className="plain-list">
        {booked.data?.map((a) => (
          <li key={a.id}>
            <strong>{format.format(new Date(a.starts_at))}</strong> — {a.name}
          </li>
        ))}
      </ul>
    </section>
  )
}
