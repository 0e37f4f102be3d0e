import { useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useSaveStake, type Stake, type StakeBody } from '../../api/stake'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Field, splitError, type FieldErrors } from '../../components/ui'
import { LANGUAGES } from '../../i18n'
import {
  checkStake,
  LIMITS,
  lowersSeats,
  stakeValues,
  timeZoneLabel,
  timeZoneOptions,
  type StakeValues,
} from './stakeForm'

const FIELDS = [
  'name',
  'timezone',
  'language',
  'sp_approvals_required',
  'hc_approvals_required',
  'high_council_seats',
] as const

const SP_CHOICES = Array.from({ length: LIMITS.sp.max - LIMITS.sp.min + 1 }, (_, i) => LIMITS.sp.min + i)

/**
 * The stake's settings form (docs/api-reference.md §14), on the settings page
 * and as the first step of the board's first-run checklist. `initialZone`:
 * the time zone to propose (the checklist offers the browser's own while the
 * settings were never saved).
 */
export function StakeForm({
  stake,
  initialZone,
  intro = true,
}: {
  stake: Stake
  initialZone?: string
  intro?: boolean
}) {
  const { t } = useTranslation('stake')
  const notify = useNotify()
  const save = useSaveStake()
  const [v, setV] = useState<StakeValues>(() => ({
    ...stakeValues(stake),
    ...(initialZone ? { timezone: initialZone } : {}),
  }))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  // A body that lowers the seats waits here for the administrator's confirmation.
  const [pending, setPending] = useState<StakeBody | null>(null)
  const zones = useMemo(() => timeZoneOptions(v.timezone), [v.timezone])
  const set = <K extends keyof StakeValues>(key: K, value: StakeValues[K]) => setV((old) => ({ ...old, [key]: value }))

  async function send(body: StakeBody) {
    setPending(null)
    try {
      await save.mutateAsync(body)
      notify(t('settings.saved'), 'success')
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.code === 'seats_filled') {
        setErrors({ high_council_seats: t('settings.seatsFilled') })
      } else {
        const s = splitError(err, [...FIELDS])
        setErrors(s.fields)
        setGeneral(s.general)
      }
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    setGeneral(null)
    const checked = checkStake(v)
    if ('errors' in checked) {
      setErrors(Object.fromEntries(Object.entries(checked.errors).map(([field, key]) => [field, t(key!)])))
      return
    }
    setErrors({})
    if (lowersSeats(stake, checked.body)) setPending(checked.body)
    else void send(checked.body)
  }

  const range = (min: number, max: number) => ({ min, max, step: 1, inputMode: 'numeric' as const })

  return (
    <form noValidate className="card" onSubmit={onSubmit}>
      {intro && <p className="muted">{t('settings.intro')}</p>}
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label={t('settings.name')} hint={t('settings.nameHint')} error={errors.name}>
        <input
          value={v.name}
          maxLength={LIMITS.name}
          autoComplete="off"
          onChange={(e) => set('name', e.target.value)}
        />
      </Field>
      <Field label={t('settings.timezone')} hint={t('settings.timezoneHint')} error={errors.timezone}>
        <select value={v.timezone} onChange={(e) => set('timezone', e.target.value)}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {timeZoneLabel(zone)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('settings.language')} hint={t('settings.languageHint')} error={errors.language}>
        <select value={v.language} onChange={(e) => set('language', e.target.value as StakeValues['language'])}>
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {t(`common:language.${language}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label={t('settings.spApprovals')}
        hint={t('settings.spApprovalsHint')}
        error={errors.sp_approvals_required}
      >
        <select value={v.sp_approvals_required} onChange={(e) => set('sp_approvals_required', e.target.value)}>
          {SP_CHOICES.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label={t('settings.hcApprovals')}
        hint={t('settings.hcApprovalsHint')}
        error={errors.hc_approvals_required}
      >
        <input
          type="number"
          className="input-narrow"
          {...range(LIMITS.hc.min, LIMITS.hc.max)}
          value={v.hc_approvals_required}
          onChange={(e) => set('hc_approvals_required', e.target.value)}
        />
      </Field>
      <Field label={t('settings.seats')} hint={t('settings.seatsHint')} error={errors.high_council_seats}>
        <input
          type="number"
          className="input-narrow"
          {...range(LIMITS.seats.min, LIMITS.seats.max)}
          value={v.high_council_seats}
          onChange={(e) => set('high_council_seats', e.target.value)}
        />
      </Field>
      <div>
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? t('common:saving') : t('settings.save')}
        </button>
      </div>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={t('settings.lowerTitle')}
        message={t('settings.lowerText', {
          from: stake.high_council_seats,
          count: pending?.high_council_seats ?? 0,
        })}
        confirmLabel={t('settings.lowerConfirm', { count: pending?.high_council_seats ?? 0 })}
        danger
        onConfirm={() => pending && void send(pending)}
      />
    </form>
  )
}
