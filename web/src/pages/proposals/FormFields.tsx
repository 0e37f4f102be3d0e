import { useTranslation } from 'react-i18next'
import { useCallingOptions } from '../../api/callings'
import type { Ward } from '../../api/types'
import { Field } from '../../components/ui'

/** A calling on the roster, or none. */
export function CallingSelect({
  id,
  value,
  onChange,
}: {
  id: string
  value: number | null | undefined
  onChange(id: number | null): void
}) {
  const { t } = useTranslation('sustainings')
  const callings = useCallingOptions()
  return (
    <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
      <option value="">{t('form.noCalling')}</option>
      {(callings.data ?? []).map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </select>
  )
}

/** The proposal's ward: chosen, or fixed (a bishop proposes for his own ward). */
export function WardField({
  wards,
  lockedWardId,
  value,
  error,
  onChange,
}: {
  wards: Ward[]
  lockedWardId: number | null | undefined
  value: number
  error: string | undefined
  onChange(id: number): void
}) {
  const { t } = useTranslation('sustainings')
  const lockedWard = lockedWardId != null ? wards.find((w) => w.id === lockedWardId) : undefined
  return lockedWardId != null ? (
    <Field label={t('form.ward')} hint={t('form.bishopWard')}>
      <input value={lockedWard?.name ?? t('form.wardN', { id: lockedWardId })} readOnly />
    </Field>
  ) : (
    <Field label={t('form.ward')} error={error}>
      <select value={value || ''} onChange={(e) => onChange(Number(e.target.value))}>
        <option value="">{t('form.chooseWard')}</option>
        {wards.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </Field>
  )
}

/** Presented in the ward only, or in every ward of the stake. */
export function ScopeField({
  value,
  error,
  onChange,
}: {
  value: 'ward' | 'stake' | undefined
  error: string | undefined
  onChange(scope: 'ward' | 'stake'): void
}) {
  const { t } = useTranslation('sustainings')
  return (
    <fieldset className="field radio-group">
      <legend>{t('form.scope')}</legend>
      <label>
        <input type="radio" name="scope" checked={value !== 'stake'} onChange={() => onChange('ward')} />{' '}
        {t('form.scopeWard')}
      </label>
      <label>
        <input type="radio" name="scope" checked={value === 'stake'} onChange={() => onChange('stake')} />{' '}
        {t('form.scopeStake')}
      </label>
      {error && <small className="field-error">{error}</small>}
    </fieldset>
  )
}
