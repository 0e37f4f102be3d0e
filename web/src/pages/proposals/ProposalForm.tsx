import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { ProposalInput, Release, Ward } from '../../api/types'
import { useCallingOptions } from '../../api/callings'
import { useUsersLite } from '../../api/users'
import { useOpenProposalsFor } from '../../api/sustainings'
import { Field, splitError, type FieldErrors } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { Link } from 'react-router'
import { ROUTES } from '../../routes'

const FIELDS = [
  'fname',
  'lname',
  'spouse_name',
  'proposed_calling',
  'ward_id',
  'submitter',
  'is_release',
  'kind',
  'office',
  'scope',
  'calling_id',
  'user_id',
  'releases',
]

interface Props {
  initial: ProposalInput
  wards: Ward[]
  /** When set, the ward cannot be changed (a bishop submits for his own ward). */
  lockedWardId?: number | null
  allowRelease: boolean
  submitLabel: string
  /** The proposal being edited: left out of the "already proposed" warning. */
  editingId?: number
  onSubmit(input: ProposalInput): Promise<unknown>
  onCancel?(): void
}

const emptyRelease = (): Release => ({ fname: '', lname: '', calling: '', calling_id: null, user_id: null })

export function ProposalForm({
  initial,
  wards,
  lockedWardId,
  allowRelease,
  submitLabel,
  editingId,
  onSubmit,
  onCancel,
}: Props) {
  const { t } = useTranslation('sustainings')
  const [v, setV] = useState<ProposalInput>(() => ({
    scope: 'ward',
    releases: [],
    calling_id: null,
    user_id: null,
    ...initial,
    ...(lockedWardId != null ? { ward_id: lockedWardId } : {}),
  }))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const callings = useCallingOptions()
  const users = useUsersLite()
  // The ward's seats as the roster has them: one pick names the person and the calling released.
  const seats = (callings.data ?? []).flatMap((c) =>
    c.slots
      .filter((slot) => slot.user_id !== null && (slot.ward_id === null || slot.ward_id === v.ward_id))
      .map((slot) => ({
        key: `${c.id}:${slot.user_id}`,
        calling: c,
        userId: slot.user_id!,
        fname: slot.user?.fname ?? '',
        lname: slot.user?.lname ?? '',
        ward: slot.ward_id,
      })),
  )
  seats.sort((a, b) => Number(b.ward !== null) - Number(a.ward !== null) || a.lname.localeCompare(b.lname))
  /** Picking a person on the roster fills the names (the roster has no spouse to fill). */
  const pickPerson = (id: number | null) => {
    const u = id === null ? undefined : users.data?.find((x) => x.id === id)
    setV((x) => ({ ...x, user_id: id, ...(u ? { fname: u.fname, lname: u.lname } : {}) }))
  }
  /** Picking a calling fills the proposed calling and, when its seats are in one ward, that ward. */
  const pickCalling = (id: number | null) => {
    const c = id === null ? undefined : callings.data?.find((x) => x.id === id)
    const wardsOf = new Set((c?.slots ?? []).map((slot) => slot.ward_id).filter((w): w is number => w !== null))
    const ward = wardsOf.size === 1 && lockedWardId == null ? [...wardsOf][0]! : undefined
    setV((x) => ({
      ...x,
      calling_id: id,
      ...(c ? { proposed_calling: c.name } : {}),
      ...(ward !== undefined ? { ward_id: ward } : {}),
    }))
  }
  const duplicates = useOpenProposalsFor(v.fname, v.lname, editingId)
  const releases = v.releases ?? []
  // docs/api-reference.md §18: an ordination names an office, not a calling, and seats nobody.
  const kind = v.kind ?? (v.is_release ? 'release' : 'call')
  const ordination = kind === 'ordination'
  const chooseKind = (next: 'call' | 'release' | 'ordination') =>
    setV((x) => ({
      ...x,
      kind: next,
      is_release: next === 'release',
      office: next === 'ordination' ? (x.office ?? 'elder') : null,
    }))

  const set = <K extends keyof ProposalInput>(k: K, value: ProposalInput[K]) => setV((x) => ({ ...x, [k]: value }))
  const setRelease = (i: number, patch: Partial<Release>) =>
    set(
      'releases',
      releases.map((r, j) => (j === i ? { ...r, ...patch } : r)),
    )

  async function submit(e: FormEvent) {
    e.preventDefault()
    const errs: FieldErrors = {}
    if (!v.fname.trim()) errs.fname = t('form.errors.fname')
    if (!v.lname.trim()) errs.lname = t('form.errors.lname')
    if (!ordination && !v.proposed_calling.trim()) errs.proposed_calling = t('form.errors.calling')
    if (!v.ward_id) errs.ward_id = t('form.errors.ward')
    releases.forEach((r, i) => {
      if (!r.fname.trim()) errs[`releases.${i}.fname`] = t('form.errors.releaseName', { n: i + 1 })
      if (!r.lname.trim()) errs[`releases.${i}.lname`] = t('form.errors.releaseName', { n: i + 1 })
      if (!r.calling.trim()) errs[`releases.${i}.calling`] = t('form.errors.releaseCalling', { n: i + 1 })
    })
    setErrors(errs)
    // One line at the top says how many fields are missing; each says what, beside it.
    const missing = Object.keys(errs).length
    setGeneral(missing > 0 ? t('form.errors.missing', { count: missing }) : null)
    if (Object.keys(errs).length > 0) return
    setBusy(true)
    try {
      await onSubmit({
        ...v,
        fname: v.fname.trim(),
        lname: v.lname.trim(),
        // An ordination's "calling" is its office, in the words of the person who submits it.
        proposed_calling: ordination ? t(`form.office.${v.office ?? 'elder'}`) : v.proposed_calling.trim(),
        ...(ordination ? { calling_id: null, user_id: null } : {}),
        spouse_name: v.spouse_name?.trim() ? v.spouse_name.trim() : null,
        releases: releases.map((r) => ({
          fname: r.fname.trim(),
          lname: r.lname.trim(),
          calling: r.calling.trim(),
          calling_id: r.calling_id ?? null,
          user_id: r.user_id ?? null,
        })),
      })
    } catch (err) {
      const { fields, general: g } = splitError(err, FIELDS)
      setErrors(fields)
      setGeneral(g)
    } finally {
      setBusy(false)
    }
  }

  const lockedWard = lockedWardId != null ? wards.find((w) => w.id === lockedWardId) : undefined
  const callingSelect = (value: number | null | undefined, onChange: (id: number | null) => void, id: string) => (
    <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
      <option value="">{t('form.noCalling')}</option>
      {(callings.data ?? []).map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </select>
  )

  return (
    <form onSubmit={submit} noValidate className="form-grid">
      {general && (
        <p className="error-box span-2" role="alert">
          {general}
        </p>
      )}
      {allowRelease && (
        <fieldset className="field radio-group span-2 kind-choice" data-testid="proposal-kind">
          <legend>{t('form.kindQuestion')}</legend>
          {(['call', 'release', 'ordination'] as const).map((k) => (
            <label key={k}>
              <input type="radio" name="kind" checked={kind === k} onChange={() => chooseKind(k)} />{' '}
              {t(`form.kinds.${k}`)}
            </label>
          ))}
          {(errors.is_release || errors.kind) && (
            <small className="field-error">{errors.kind ?? errors.is_release}</small>
          )}
        </fieldset>
      )}
      {ordination && (
        <fieldset className="field radio-group span-2">
          <legend>{t('form.officeQuestion')}</legend>
          {(['elder', 'high_priest'] as const).map((o) => (
            <label key={o}>
              <input
                type="radio"
                name="office"
                checked={(v.office ?? 'elder') === o}
                disabled={!allowRelease}
                onChange={() => set('office', o)}
              />{' '}
              {t(`form.office.${o}`)}
            </label>
          ))}
          {errors.office && <small className="field-error">{errors.office}</small>}
        </fieldset>
      )}
      <Field label={t('form.fname')} error={errors.fname}>
        <input value={v.fname} onChange={(e) => set('fname', e.target.value)} autoComplete="off" />
      </Field>
      <Field label={t('form.lname')} error={errors.lname}>
        <input value={v.lname} onChange={(e) => set('lname', e.target.value)} autoComplete="off" />
      </Field>
      {duplicates.length > 0 && (
        <div className="notice notice-warning span-2" role="status" data-testid="duplicate-warning">
          {t('form.duplicate', { count: duplicates.length })}{' '}
          {duplicates.map((p, i) => (
            <span key={p.id}>
              {i > 0 && ', '}
              <Link to={ROUTES.proposal(p.id)}>{p.proposed_calling}</Link>
            </span>
          ))}
        </div>
      )}
      <Field label={t('form.spouse')} error={errors.spouse_name} hint={t('form.optional')}>
        <input value={v.spouse_name ?? ''} onChange={(e) => set('spouse_name', e.target.value)} autoComplete="off" />
      </Field>
      {!ordination && (
        <Field label={t('form.proposedCalling')} error={errors.proposed_calling}>
          <input
            value={v.proposed_calling}
            onChange={(e) => set('proposed_calling', e.target.value)}
            autoComplete="off"
          />
        </Field>
      )}
      {lockedWardId != null ? (
        <Field label={t('form.ward')} hint={t('form.bishopWard')}>
          <input value={lockedWard?.name ?? t('form.wardN', { id: lockedWardId })} readOnly />
        </Field>
      ) : (
        <Field label={t('form.ward')} error={errors.ward_id}>
          <select value={v.ward_id || ''} onChange={(e) => set('ward_id', Number(e.target.value))}>
            <option value="">{t('form.chooseWard')}</option>
            {wards.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </Field>
      )}
      {!ordination && (
        <>
          <fieldset className="field radio-group">
            <legend>{t('form.scope')}</legend>
            <label>
              <input type="radio" name="scope" checked={v.scope !== 'stake'} onChange={() => set('scope', 'ward')} />{' '}
              {t('form.scopeWard')}
            </label>
            <label>
              <input type="radio" name="scope" checked={v.scope === 'stake'} onChange={() => set('scope', 'stake')} />{' '}
              {t('form.scopeStake')}
            </label>
            {errors.scope && <small className="field-error">{errors.scope}</small>}
          </fieldset>
          <Field label={t('form.linkCalling')} error={errors.calling_id} hint={t('form.linkHint')}>
            {callingSelect(v.calling_id, pickCalling, 'proposal-calling-id')}
          </Field>
          <UserPicker
            id="proposal-user-id"
            label={t('form.linkUser')}
            value={v.user_id ?? null}
            onChange={pickPerson}
            error={errors.user_id}
            allowClear
          />

          <fieldset className="field span-2 releases">
            <legend>{t('form.releases')}</legend>
            {releases.length === 0 && <p className="muted small">{t('form.noReleases')}</p>}
            {releases.map((r, i) => (
              <div className="release-row" key={i} data-testid={`release-${i}`}>
                <Field label={t('form.releaseSeat')} hint={t('form.releaseSeatHint')}>
                  <select
                    id={`release-${i}-seat`}
                    value={r.calling_id != null && r.user_id != null ? `${r.calling_id}:${r.user_id}` : ''}
                    onChange={(e) => {
                      const seat = seats.find((x) => x.key === e.target.value)
                      setRelease(
                        i,
                        seat
                          ? {
                              fname: seat.fname,
                              lname: seat.lname,
                              calling: seat.calling.name,
                              calling_id: seat.calling.id,
                              user_id: seat.userId,
                            }
                          : { calling_id: null, user_id: null },
                      )
                    }}
                  >
                    <option value="">{t('form.notOnRoster')}</option>
                    {seats.map((seat) => (
                      <option key={seat.key} value={seat.key}>
                        {t('form.seatOption', { name: `${seat.fname} ${seat.lname}`, calling: seat.calling.name })}
                      </option>
                    ))}
                  </select>
                </Field>
                {(r.calling_id == null || r.user_id == null) && (
                  <>
                    <Field label={t('form.fname')} error={errors[`releases.${i}.fname`]}>
                      <input
                        value={r.fname}
                        onChange={(e) => setRelease(i, { fname: e.target.value })}
                        autoComplete="off"
                      />
                    </Field>
                    <Field label={t('form.lname')} error={errors[`releases.${i}.lname`]}>
                      <input
                        value={r.lname}
                        onChange={(e) => setRelease(i, { lname: e.target.value })}
                        autoComplete="off"
                      />
                    </Field>
                    <Field label={t('form.releasedFrom')} error={errors[`releases.${i}.calling`]}>
                      <input
                        value={r.calling}
                        onChange={(e) => setRelease(i, { calling: e.target.value })}
                        autoComplete="off"
                      />
                    </Field>
                  </>
                )}
                <button
                  type="button"
                  className="button button-small"
                  onClick={() =>
                    set(
                      'releases',
                      releases.filter((_, j) => j !== i),
                    )
                  }
                  aria-label={t('form.removeReleaseOf', { n: i + 1 })}
                >
                  {t('form.removeRelease')}
                </button>
              </div>
            ))}
            <button type="button" className="button" onClick={() => set('releases', [...releases, emptyRelease()])}>
              {t('form.addRelease')}
            </button>
          </fieldset>
        </>
      )}

      <div className="form-actions span-2">
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            {t('form.cancel')}
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('form.saving') : submitLabel}
        </button>
      </div>
    </form>
  )
}
