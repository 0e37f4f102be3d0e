import { useTranslation } from 'react-i18next'
import type { ProposalInput, Ward } from '../../api/types'
import { useOpenProposalsFor } from '../../api/sustainings'
import { Field } from '../../components/ui'
import { UserPicker } from '../../components/UserPicker'
import { Link } from 'react-router'
import { ROUTES } from '../../routes'
import { CallingSelect, ScopeField, WardField } from './FormFields'
import { KindFields } from './KindFields'
import { ReleasesFieldset } from './ReleasesFieldset'
import { useProposalForm } from './useProposalForm'

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
  const form = useProposalForm({ initial, lockedWardId, onSubmit })
  const { v, set, errors, general, busy, kind, ordination, releases } = form
  const duplicates = useOpenProposalsFor(v.fname, v.lname, editingId)
  return (
    <form onSubmit={form.submit} noValidate className="form-grid">
      {general && (
        <p className="error-box span-2" role="alert">
          {general}
        </p>
      )}
      <KindFields
        kind={kind}
        office={v.office ?? 'elder'}
        allowChoice={allowRelease}
        errors={errors}
        onKind={form.chooseKind}
        onOffice={(o) => set('office', o)}
      />
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
      <WardField
        wards={wards}
        lockedWardId={lockedWardId}
        value={v.ward_id}
        error={errors.ward_id}
        onChange={(id) => set('ward_id', id)}
      />
      {!ordination && (
        <>
          <ScopeField value={v.scope} error={errors.scope} onChange={(next) => set('scope', next)} />
          <Field label={t('form.linkCalling')} error={errors.calling_id} hint={t('form.linkHint')}>
            <CallingSelect id="proposal-calling-id" value={v.calling_id} onChange={form.pickCalling} />
          </Field>
          <UserPicker
            id="proposal-user-id"
            label={t('form.linkUser')}
            value={v.user_id ?? null}
            onChange={form.pickPerson}
            error={errors.user_id}
            allowClear
          />

          <ReleasesFieldset
            releases={releases}
            wardId={v.ward_id}
            errors={errors}
            onChange={(next) => set('releases', next)}
          />
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
