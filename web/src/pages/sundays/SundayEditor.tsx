import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSaveSunday, type Sunday, type SundayPlan, type SundayPerson } from '../../api/appointments'
import { fullName } from '../../auth/roles'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, minutesToTime, timeToMinutes } from '../../components/ui'
import { formatLocalDate } from '../../i18n/format'

interface Row {
  user_id: string
  kind: 'ward_visit' | 'stake_conference'
  ward_id: string
  session: string
  time: string
}

const EMPTY_ROW: Row = { user_id: '', kind: 'ward_visit', ward_id: '', session: '', time: '' }

/** One Sunday's presidency assignments, replaced as a whole on save; its title names the day as the cards do. */
export function SundayEditor(props: { sunday: Sunday; plan: SundayPlan; year: number; onClose(): void }) {
  const { sunday, plan, onClose } = props
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
  const save = useSaveSunday(props.year, {
    onSuccess: (result) => {
      const warned = result.warnings.length > 0
      notify(warned ? t('savedWithWarnings') : t('saved'), warned ? 'error' : 'success')
      onClose()
    },
  })
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
  const title = t('editTitle', { date: formatLocalDate(sunday.date, 'full') })
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={title} wide>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        {rows.length === 0 && <p className="muted">{t('noAssignments')}</p>}
        {rows.map((r, i) => (
          <AssignmentRow
            key={i}
            n={i + 1}
            row={r}
            people={people}
            plan={plan}
            onChange={(patch) => setRows(rows.map((x, j) => (j === i ? { ...x, ...patch } : x)))}
            onRemove={() => setRows(rows.filter((_, j) => j !== i))}
          />
        ))}
        <button type="button" className="button" onClick={() => setRows([...rows, EMPTY_ROW])}>
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

function AssignmentRow(props: {
  n: number
  row: Row
  people: SundayPerson[]
  plan: SundayPlan
  onChange(patch: Partial<Row>): void
  onRemove(): void
}) {
  const { t } = useTranslation('sundays')
  const { row: r, onChange: update } = props
  return (
    <fieldset className="sunday-row">
      <legend>{t('assignment', { n: props.n })}</legend>
      <Field label={t('person')}>
        <select value={r.user_id} onChange={(e) => update({ user_id: e.target.value })} required>
          <option value="">{t('choose')}</option>
          {props.people.map((p) => (
            <option key={p.id} value={p.id}>
              {fullName(p)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('kind')}>
        <select value={r.kind} onChange={(e) => update({ kind: e.target.value as Row['kind'] })}>
          <option value="ward_visit">{t('kindVisit')}</option>
          <option value="stake_conference">{t('kindConference')}</option>
        </select>
      </Field>
      {r.kind === 'ward_visit' ? (
        <Field label={t('ward')}>
          <select value={r.ward_id} onChange={(e) => update({ ward_id: e.target.value })} required>
            <option value="">{t('choose')}</option>
            {props.plan.wards.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <Field label={t('session')}>
          <input value={r.session} maxLength={100} onChange={(e) => update({ session: e.target.value })} />
        </Field>
      )}
      <Field label={t('time')} hint={r.kind === 'ward_visit' ? t('timeHint') : undefined}>
        <input
          type="time"
          value={r.time}
          required={r.kind === 'stake_conference'}
          onChange={(e) => update({ time: e.target.value })}
        />
      </Field>
      <button type="button" className="button button-small" onClick={props.onRemove}>
        {t('remove')}
      </button>
    </fieldset>
  )
}
