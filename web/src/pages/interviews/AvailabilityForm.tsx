import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSaveAvailability, type Availability } from '../../api/appointments'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, minutesToTime, timeToMinutes } from '../../components/ui'
import { dateFormat, zoneName } from '../../i18n/format'

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

/** A list of rows with one change or removal at a time. */
function useRows<Row>(initial: () => Row[]) {
  const [rows, setRows] = useState<Row[]>(initial)
  return {
    rows,
    add: (row: Row) => setRows([...rows, row]),
    update: (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r))),
    remove: (i: number) => setRows(rows.filter((_, j) => j !== i)),
  }
}

/** The interviewer's weekly times, dated exceptions and where he holds interviews. */
export function AvailabilityForm({ data }: { data: Availability }) {
  const { t } = useTranslation('interviews')
  const notify = useNotify()
  const weekly = useRows<WindowRow>(() =>
    data.weekly.map((w) => ({
      weekday: String(w.weekday),
      start: minutesToTime(w.start_minute),
      end: minutesToTime(w.end_minute),
    })),
  )
  const exceptions = useRows<ExceptionRow>(() =>
    data.exceptions.map((e) => ({
      date: e.date,
      start: minutesToTime(e.start_minute),
      end: minutesToTime(e.end_minute),
      open: e.open ? 'open' : 'closed',
    })),
  )
  const [place, setPlace] = useState(data.place ?? '')
  const save = useSaveAvailability({ onSuccess: () => notify(t('saved'), 'success') })
  const submit = () =>
    save.mutate({
      weekly: weekly.rows.map((w) => ({
        weekday: Number(w.weekday),
        start_minute: toMinute(w.start),
        end_minute: toMinute(w.end),
      })),
      exceptions: exceptions.rows.map((e) => ({
        date: e.date,
        start_minute: toMinute(e.start),
        end_minute: toMinute(e.end),
        open: e.open === 'open',
      })),
      place: place.trim() || null,
    })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <p className="muted">{t('zone', { zone: zoneName(data.timezone) })}</p>
      <Field label={t('place')} hint={t('placeHint')}>
        <input value={place} maxLength={300} onChange={(e) => setPlace(e.target.value)} />
      </Field>
      <h3>{t('weekly')}</h3>
      {weekly.rows.length === 0 && <p className="muted">{t('noWeekly')}</p>}
      {weekly.rows.map((w, i) => (
        <WeeklyRow key={i} n={i + 1} row={w} onChange={(p) => weekly.update(i, p)} onRemove={() => weekly.remove(i)} />
      ))}
      <button
        type="button"
        className="button"
        onClick={() => weekly.add({ weekday: '2', start: '18:00', end: '20:00' })}
      >
        {t('addWindow')}
      </button>
      <h3>{t('exceptions')}</h3>
      {exceptions.rows.map((x, i) => (
        <ExceptionFields
          key={i}
          n={i + 1}
          row={x}
          onChange={(p) => exceptions.update(i, p)}
          onRemove={() => exceptions.remove(i)}
        />
      ))}
      <button
        type="button"
        className="button"
        onClick={() => exceptions.add({ date: '', start: '00:00', end: '24:00', open: 'closed' })}
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

interface RowProps<Row> {
  n: number
  row: Row
  onChange(patch: Partial<Row>): void
  onRemove(): void
}

/** From and until, on the quarter hour. */
function Span({ row, onChange }: Pick<RowProps<{ start: string; end: string }>, 'row' | 'onChange'>) {
  const { t } = useTranslation('interviews')
  return (
    <>
      <Field label={t('from')}>
        <input
          type="time"
          step={900}
          required
          value={row.start}
          onChange={(e) => onChange({ start: e.target.value })}
        />
      </Field>
      <Field label={t('to')}>
        <input type="time" step={900} required value={row.end} onChange={(e) => onChange({ end: e.target.value })} />
      </Field>
    </>
  )
}

function WeeklyRow({ n, row, onChange, onRemove }: RowProps<WindowRow>) {
  const { t, i18n } = useTranslation('interviews')
  const days = useMemo(() => {
    const f = dateFormat({ weekday: 'long', timeZone: 'UTC' }, i18n.language)
    return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2026, 2, 1 + i))))
  }, [i18n.language])
  return (
    <fieldset className="interview-row">
      <legend>{t('window', { n })}</legend>
      <Field label={t('weekday')}>
        <select value={row.weekday} onChange={(e) => onChange({ weekday: e.target.value })}>
          {days.map((d, i) => (
            <option key={i} value={i}>
              {d}
            </option>
          ))}
        </select>
      </Field>
      <Span row={row} onChange={onChange} />
      <button type="button" className="button button-small" onClick={onRemove}>
        {t('remove')}
      </button>
    </fieldset>
  )
}

function ExceptionFields({ n, row, onChange, onRemove }: RowProps<ExceptionRow>) {
  const { t } = useTranslation('interviews')
  return (
    <fieldset className="interview-row">
      <legend>{t('exception', { n })}</legend>
      <Field label={t('date')}>
        <input type="date" required value={row.date} onChange={(e) => onChange({ date: e.target.value })} />
      </Field>
      <Span row={row} onChange={onChange} />
      <Field label={t('exceptionKind')}>
        <select value={row.open} onChange={(e) => onChange({ open: e.target.value })}>
          <option value="closed">{t('closed')}</option>
          <option value="open">{t('open')}</option>
        </select>
      </Field>
      <button type="button" className="button button-small" onClick={onRemove}>
        {t('remove')}
      </button>
    </fieldset>
  )
}
