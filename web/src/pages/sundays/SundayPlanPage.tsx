import { useMemo, useState, useSyncExternalStore } from 'react'
import { useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useSaveSunday, useSundayPlan, type Sunday, type SundayPlan } from '../../api/appointments'
import { useMe } from '../../auth/AuthProvider'
import { can, fullName } from '../../auth/roles'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, Loading, minutesToTime, PageHeader, timeToMinutes } from '../../components/ui'
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

const localToday = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/**
 * The stake's Sunday plan (docs/api-reference.md §18): a month of Sundays side
 * by side (a phone: one Sunday at a time), each with the high council's
 * speakers, the presidency's visits and conference sessions, and a warning
 * when someone is in two places at once.
 */
export default function SundayPlanPage() {
  const { t, i18n } = useTranslation('sundays')
  const me = useMe()
  const phone = usePhone()
  const [params, setParams] = useSearchParams()
  const today = localToday()
  const year = Number(params.get('year')) || Number(today.slice(0, 4))
  const month = Number(params.get('month')) || (year === Number(today.slice(0, 4)) ? Number(today.slice(5, 7)) : 1)
  const plan = useSundayPlan(year)
  const [index, setIndex] = useState(0)
  const [editing, setEditing] = useState<Sunday | null>(null)
  const manager = can(me, 'speaking.manage')

  const go = (y: number, m: number) => {
    const wrapped = m < 1 ? { y: y - 1, m: 12 } : m > 12 ? { y: y + 1, m: 1 } : { y, m }
    setIndex(0)
    setParams({ year: String(wrapped.y), month: String(wrapped.m) }, { replace: true })
  }
  const monthName = new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric' }).format(
    new Date(year, month - 1, 1),
  )
  const sundays = useMemo(
    () => plan.data?.sundays.filter((s) => Number(s.date.slice(5, 7)) === month) ?? [],
    [plan.data, month],
  )
  const shown = phone
    ? sundays.slice(Math.min(index, sundays.length - 1), Math.min(index, sundays.length - 1) + 1)
    : sundays

  return (
    <>
      <PageHeader title={t('title')} docTitle={t('title')} />
      <div className="sunday-nav" role="group" aria-label={t('month')}>
        <button type="button" className="button" onClick={() => go(year, month - 1)}>
          <span aria-hidden="true">‹ </span>
          {t('previousMonth')}
        </button>
        <h2 className="sunday-month">{monthName}</h2>
        <button type="button" className="button" onClick={() => go(year, month + 1)}>
          {t('nextMonth')}
          <span aria-hidden="true"> ›</span>
        </button>
      </div>
      {plan.isLoading && <Loading />}
      <ErrorMessage error={plan.error} />
      {plan.data && phone && sundays.length > 1 && (
        <div className="sunday-nav" role="group" aria-label={t('sunday')}>
          <button type="button" className="button" disabled={index <= 0} onClick={() => setIndex(index - 1)}>
            {t('previousSunday')}
          </button>
          <span className="muted">
            {t('position', { n: Math.min(index, sundays.length - 1) + 1, of: sundays.length })}
          </span>
          <button
            type="button"
            className="button"
            disabled={index >= sundays.length - 1}
            onClick={() => setIndex(index + 1)}
          >
            {t('nextSunday')}
          </button>
        </div>
      )}
      {plan.data && (
        <div className={`sunday-grid${phone ? ' sunday-grid-one' : ''}`}>
          {shown.map((s) => (
            <SundayCard key={s.date} sunday={s} plan={plan.data} onEdit={manager ? () => setEditing(s) : undefined} />
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

function SundayCard({ sunday, plan, onEdit }: { sunday: Sunday; plan: SundayPlan; onEdit?: () => void }) {
  const { t, i18n } = useTranslation('sundays')
  const ward = (id: number | null) => plan.wards.find((w) => w.id === id)?.name ?? ''
  const day = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', day: 'numeric', month: 'long' }).format(
    new Date(`${sunday.date}T12:00:00`),
  )
  const headingId = `sunday-${sunday.date}`
  return (
    <section className="card sunday-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{day}</h3>
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
              <span className="muted">{minutesToTime(a.start_minute)}</span>
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
              <span className="muted">{minutesToTime(s.start_minute)}</span>
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

interface Row {
  user_id: string
  kind: 'ward_visit' | 'stake_conference'
  ward_id: string
  session: string
  time: string
}

function SundayEditor({
  sunday,
  plan,
  year,
  onClose,
}: {
  sunday: Sunday
  plan: SundayPlan
  year: number
  onClose(): void
}) {
  const { t } = useTranslation('sundays')
  const notify = useNotify()
  const [rows, setRows] = useState<Row[]>(() =>
    sunday.assignments.map((a) => ({
      user_id: String(a.user.id),
      kind: a.kind,
      ward_id: a.ward_id === null ? '' : String(a.ward_id),
      session: a.session ?? '',
      time: minutesToTime(a.start_minute),
    })),
  )
  const people = useMemo(() => {
    const list = [...plan.people]
    for (const a of sunday.assignments) if (!list.some((p) => p.id === a.user.id)) list.push(a.user)
    return list
  }, [plan.people, sunday.assignments])
  const save = useSaveSunday(year, {
    onSuccess: (result) => {
      notify(
        result.warnings.length > 0 ? t('savedWithWarnings') : t('saved'),
        result.warnings.length ? 'error' : 'success',
      )
      onClose()
    },
  })
  const update = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)))
  const submit = () =>
    save.mutate({
      date: sunday.date,
      assignments: rows
        .filter((r) => r.user_id)
        .map((r) => ({
          user_id: Number(r.user_id),
          kind: r.kind,
          ward_id: r.kind === 'ward_visit' && r.ward_id ? Number(r.ward_id) : null,
          session: r.kind === 'stake_conference' ? r.session || null : null,
          start_minute: r.time ? timeToMinutes(r.time) : null,
        })),
    })
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('editTitle', { date: sunday.date })} wide>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        {rows.length === 0 && <p className="muted">{t('noAssignments')}</p>}
        {rows.map((r, i) => (
          <fieldset key={i} className="sunday-row">
            <legend>{t('assignment', { n: i + 1 })}</legend>
            <Field label={t('person')}>
              <select value={r.user_id} onChange={(e) => update(i, { user_id: e.target.value })} required>
                <option value="">{t('choose')}</option>
                {people.map((p) => (
                  <option key={p.id} value={p.id}>
                    {fullName(p)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('kind')}>
              <select value={r.kind} onChange={(e) => update(i, { kind: e.target.value as Row['kind'] })}>
                <option value="ward_visit">{t('kindVisit')}</option>
                <option value="stake_conference">{t('kindConference')}</option>
              </select>
            </Field>
            {r.kind === 'ward_visit' ? (
              <Field label={t('ward')}>
                <select value={r.ward_id} onChange={(e) => update(i, { ward_id: e.target.value })} required>
                  <option value="">{t('choose')}</option>
                  {plan.wards.map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.name}
                    </option>
                  ))}
                </select>
              </Field>
            ) : (
              <Field label={t('session')}>
                <input value={r.session} maxLength={100} onChange={(e) => update(i, { session: e.target.value })} />
              </Field>
            )}
            <Field label={t('time')} hint={r.kind === 'ward_visit' ? t('timeHint') : undefined}>
              <input
                type="time"
                value={r.time}
                required={r.kind === 'stake_conference'}
                onChange={(e) => update(i, { time: e.target.value })}
              />
            </Field>
            <button
              type="button"
              className="button button-small"
              onClick={() => setRows(rows.filter((_, j) => j !== i))}
            >
              {t('remove')}
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="button"
          onClick={() => setRows([...rows, { user_id: '', kind: 'ward_visit', ward_id: '', session: '', time: '' }])}
        >
          {t('add')}
        </button>
        <ErrorMessage error={save.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common:cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? t('common:working') : t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
