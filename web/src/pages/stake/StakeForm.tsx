import { useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/client'
import { useSaveStake, type Stake, type StakeBody } from '../../api/stake'
import { CopyButton } from '../../components/CopyButton'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Field, splitError, type FieldErrors } from '../../components/ui'
import { LANGUAGES } from '../../i18n'
import { ROUTES } from '../../routes'
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
  'slug',
  'timezone',
  'language',
  'sp_approvals_required',
  'hc_approvals_required',
  'high_council_seats',
] as const

/** The server's refusals that name one field, as `stake` translation keys. */
const CONFLICTS: Record<string, [field: (typeof FIELDS)[number], key: string]> = {
  seats_filled: ['high_council_seats', 'settings.seatsFilled'],
  slug_taken: ['slug', 'settings.slugTaken'],
}

const SP_CHOICES = Array.from({ length: LIMITS.sp.max - LIMITS.sp.min + 1 }, (_, i) => LIMITS.sp.min + i)

type SetValue = <K extends keyof StakeValues>(key: K, value: StakeValues[K]) => void

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
  const set: SetValue = (key, value) => setV((old) => ({ ...old, [key]: value }))

  async function send(body: StakeBody) {
    setPending(null)
    try {
      await save.mutateAsync(body)
      notify(t('settings.saved'), 'success')
    } catch (err) {
      const known = err instanceof ApiError && err.status === 409 ? CONFLICTS[err.code ?? ''] : undefined
      if (known) {
        setErrors({ [known[0]]: t(known[1]) })
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
      <SlugField value={v.slug} saved={stake.slug} error={errors.slug} set={set} />
      <RegionFields v={v} errors={errors} set={set} />
      <ApprovalFields v={v} errors={errors} set={set} />
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

/**
 * The stake's address (`/s/<slug>`) and, under it, the saved public page's
 * full address to copy or open: the one that works now, not the one typed.
 */
function SlugField({ value, saved, error, set }: { value: string; saved: string; error?: string; set: SetValue }) {
  const { t } = useTranslation('stake')
  const address = `${window.location.origin}${ROUTES.stakePage(saved)}`
  return (
    <div className="stack">
      <Field label={t('settings.slug')} hint={t('settings.slugHint')} error={error}>
        <input
          value={value}
          maxLength={LIMITS.slug}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          className="mono"
          onChange={(e) => set('slug', e.target.value.toLowerCase())}
        />
      </Field>
      <Field label={t('settings.publicAddress')}>
        {/* Wrapped, not scrolled: the whole address stays readable on a phone. */}
        <textarea
          readOnly
          rows={1}
          value={address}
          className="mono read-only-address"
          onFocus={(e) => e.currentTarget.select()}
        />
      </Field>
      <div className="button-row">
        <CopyButton
          text={address}
          label={t('settings.copyAddress')}
          copied={t('settings.copied')}
          failed={t('settings.copyFailed')}
          className="button button-small"
        />
        <a className="button button-small" href={ROUTES.stakePage(saved)} target="_blank" rel="noreferrer">
          {t('settings.openPublic')}
        </a>
      </div>
    </div>
  )
}

function RegionFields({ v, errors, set }: { v: StakeValues; errors: FieldErrors; set: SetValue }) {
  const { t } = useTranslation('stake')
  const zones = useMemo(() => timeZoneOptions(v.timezone), [v.timezone])
  return (
    <>
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
    </>
  )
}

const range = (min: number, max: number) => ({ min, max, step: 1, inputMode: 'numeric' as const })

function ApprovalFields({ v, errors, set }: { v: StakeValues; errors: FieldErrors; set: SetValue }) {
  const { t } = useTranslation('stake')
  return (
    <>
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
    </>
  )
}
