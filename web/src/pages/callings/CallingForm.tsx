import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { CallingBody } from '../../api/callings'
import { PERMISSIONS, type Calling } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { Field, type FieldErrors } from '../../components/ui'
import { useFormState } from '../../components/useFormState'

export type CallingInput = CallingBody

const FIELDS = ['name', 'is_public', 'max_slots', 'permissions']

export function CallingForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Calling
  submitLabel: string
  onSubmit(v: CallingInput): Promise<unknown>
  onCancel(): void
}) {
  const { t } = useTranslation('callings')
  const me = useMe()
  const [v, setV] = useState<CallingInput>({
    name: initial?.name ?? '',
    is_public: initial?.is_public ?? false,
    max_slots: initial?.max_slots ?? 1,
    permissions: initial?.permissions ?? [],
  })
  const { errors, general, busy, check, run } = useFormState()
  const filled = initial?.slots.filter((s) => s.filled).map((s) => s.slot_id) ?? []
  const highestFilled = filled.length ? Math.max(...filled) : 0

  async function submit(e: FormEvent) {
    e.preventDefault()
    const errs: FieldErrors = {}
    const name = v.name.trim()
    if (!name) errs.name = t('form.enterName')
    else if (name.length > 100) errs.name = t('form.nameTooLong')
    if (!Number.isInteger(v.max_slots) || v.max_slots < 1) errs.max_slots = t('form.atLeastOne')
    else if (v.max_slots < highestFilled) errs.max_slots = t('form.seatFilled', { seat: highestFilled })
    if (!check(errs)) return
    await run(FIELDS, async () => {
      await onSubmit({ ...v, name })
    })
  }

  return (
    <form onSubmit={submit} noValidate className="stack">
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label={t('form.name')} error={errors.name}>
        <input value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} />
      </Field>
      <Field label={t('form.seats')} error={errors.max_slots}>
        <input
          type="number"
          min={1}
          max={1000}
          value={Number.isNaN(v.max_slots) ? '' : v.max_slots}
          onChange={(e) => setV({ ...v, max_slots: e.target.valueAsNumber })}
        />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={v.is_public} onChange={(e) => setV({ ...v, is_public: e.target.checked })} />{' '}
        {t('form.public')}
      </label>
      <fieldset className="field">
        <legend>{t('form.access')}</legend>
        {errors.permissions && <small className="field-error">{errors.permissions}</small>}
        <div className="checkbox-grid">
          {PERMISSIONS.map((p) => {
            const mine = me.permissions.includes(p)
            return (
              <label key={p} className="checkbox" title={mine ? undefined : t('form.cannotGrant')}>
                <input
                  type="checkbox"
                  disabled={!mine && !v.permissions.includes(p)}
                  checked={v.permissions.includes(p)}
                  onChange={(e) =>
                    setV({
                      ...v,
                      permissions: e.target.checked ? [...v.permissions, p] : v.permissions.filter((x) => x !== p),
                    })
                  }
                />{' '}
                <code>{p}</code> <span className="muted small">{t(`common:permission.${p}`)}</span>
              </label>
            )
          })}
        </div>
      </fieldset>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('common:cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('common:saving') : submitLabel}
        </button>
      </div>
    </form>
  )
}
