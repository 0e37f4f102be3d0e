import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useUsersLite } from '../../api/users'
import { useSaveWard } from '../../api/wards'
import type { Ward } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { Field, minutesToTime, timeToMinutes, type FieldErrors } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { useFormState } from '../../components/useFormState'
import { ROUTES } from '../../routes'

/** Ward field speaking_sunday (docs/api-reference.md §13): 5 falls back to the last Sunday in a month with four. */
const SPEAKING_SUNDAYS = [1, 2, 3, 4, 5] as const

export function WardForm({ ward, onSaved, onClose }: { ward?: Ward; onSaved(msg: string): void; onClose(): void }) {
  const { t } = useTranslation('wards')
  const [name, setName] = useState(ward?.name ?? '')
  const [time, setTime] = useState(ward ? minutesToTime(ward.start_time) : '10:00')
  const [bishop, setBishop] = useState<number | null>(ward?.bishop_id ?? null)
  const [sunday, setSunday] = useState(ward?.speaking_sunday ?? 1)
  const { errors, general, busy, check, run } = useFormState()
  const save = useSaveWard()

  return (
    <form
      noValidate
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault()
        const errs: FieldErrors = {}
        const minutes = timeToMinutes(time)
        if (!name.trim()) errs.name = t('form.enterName')
        if (minutes === null || minutes < 0 || minutes > 1439) errs.start_time = t('form.chooseTime')
        if (!check(errs)) return
        await run(['name', 'start_time', 'bishop_id', 'speaking_sunday'], async () => {
          const body = { name: name.trim(), start_time: minutes, bishop_id: bishop, speaking_sunday: sunday }
          await save.mutateAsync({ id: ward?.id, body })
          onSaved(ward ? t('form.saved') : t('form.created'))
        })
      }}
    >
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label={t('form.name')} error={errors.name}>
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={t('form.startsAt')} error={errors.start_time}>
        <input type="time" step={300} value={time} onChange={(e) => setTime(e.target.value)} />
      </Field>
      <Field label={t('form.speakingSunday')} error={errors.speaking_sunday}>
        <select value={sunday} onChange={(e) => setSunday(Number(e.target.value))}>
          {SPEAKING_SUNDAYS.map((n) => (
            <option key={n} value={n}>
              {t(`form.sunday${n}`)}
            </option>
          ))}
        </select>
      </Field>
      <UserPicker label={t('bishop')} value={bishop} onChange={setBishop} allowClear error={errors.bishop_id} />
      <NoPeopleHint />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('common:cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('common:saving') : ward ? t('form.save') : t('form.create')}
        </button>
      </div>
    </form>
  )
}

/**
 * A stake with nobody but its administrator has no one to choose as bishop:
 * instead of an empty list, say where people come from.
 */
function NoPeopleHint() {
  const { t } = useTranslation('wards')
  const me = useMe()
  const users = useUsersLite()
  if (!users.data || users.data.some((u) => u.id !== me?.id)) return null
  return (
    <p className="muted" role="note">
      {t('form.noPeople')}
      {can(me, 'users.manage') && (
        <>
          {' '}
          <Link to={ROUTES.importLcr}>{t('form.noPeopleImport')}</Link> ·{' '}
          <Link to={ROUTES.users}>{t('form.noPeopleAdd')}</Link>
        </>
      )}
    </p>
  )
}
