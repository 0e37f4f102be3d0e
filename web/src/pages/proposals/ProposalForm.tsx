import { useState, type FormEvent } from 'react'
import type { ProposalInput, Ward } from '../../api/types'
import { Field, splitError, type FieldErrors } from '../../components/ui'

const FIELDS = ['fname', 'lname', 'spouse_name', 'proposed_calling', 'ward_id', 'submitter', 'is_release']

interface Props {
  initial: ProposalInput
  wards: Ward[]
  /** When set, the ward cannot be changed (a bishop submits for his own ward). */
  lockedWardId?: number | null
  allowRelease: boolean
  submitLabel: string
  onSubmit(input: ProposalInput): Promise<unknown>
  onCancel?(): void
}

export function ProposalForm({ initial, wards, lockedWardId, allowRelease, submitLabel, onSubmit, onCancel }: Props) {
  const [v, setV] = useState<ProposalInput>(lockedWardId != null ? { ...initial, ward_id: lockedWardId } : initial)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const set = <K extends keyof ProposalInput>(k: K, value: ProposalInput[K]) => setV((x) => ({ ...x, [k]: value }))

  async function submit(e: FormEvent) {
    e.preventDefault()
    const errs: FieldErrors = {}
    if (!v.fname.trim()) errs.fname = 'Enter the first name.'
    if (!v.lname.trim()) errs.lname = 'Enter the last name.'
    if (!v.proposed_calling.trim()) errs.proposed_calling = 'Enter the calling.'
    if (!v.ward_id) errs.ward_id = 'Choose a ward.'
    setErrors(errs)
    setGeneral(null)
    if (Object.keys(errs).length > 0) return
    setBusy(true)
    try {
      await onSubmit({
        ...v,
        fname: v.fname.trim(),
        lname: v.lname.trim(),
        proposed_calling: v.proposed_calling.trim(),
        spouse_name: v.spouse_name?.trim() ? v.spouse_name.trim() : null,
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

  return (
    <form onSubmit={submit} noValidate className="form-grid">
      {general && (
        <p className="error-box span-2" role="alert">
          {general}
        </p>
      )}
      <Field label="First name" error={errors.fname}>
        <input value={v.fname} onChange={(e) => set('fname', e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Last name" error={errors.lname}>
        <input value={v.lname} onChange={(e) => set('lname', e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Spouse name" error={errors.spouse_name} hint="Optional">
        <input value={v.spouse_name ?? ''} onChange={(e) => set('spouse_name', e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Proposed calling" error={errors.proposed_calling}>
        <input
          value={v.proposed_calling}
          onChange={(e) => set('proposed_calling', e.target.value)}
          autoComplete="off"
        />
      </Field>
      {lockedWardId != null ? (
        <Field label="Ward" hint="Bishops propose for their own ward.">
          <input value={lockedWard?.name ?? `Ward ${lockedWardId}`} readOnly />
        </Field>
      ) : (
        <Field label="Ward" error={errors.ward_id}>
          <select value={v.ward_id || ''} onChange={(e) => set('ward_id', Number(e.target.value))}>
            <option value="">Choose a ward…</option>
            {wards.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </Field>
      )}
      {allowRelease && (
        <fieldset className="field radio-group">
          <legend>Type</legend>
          <label>
            <input type="radio" name="kind" checked={!v.is_release} onChange={() => set('is_release', false)} /> Call to
            a calling
          </label>
          <label>
            <input type="radio" name="kind" checked={v.is_release} onChange={() => set('is_release', true)} /> Release
            from a calling
          </label>
          {errors.is_release && <small className="field-error">{errors.is_release}</small>}
        </fieldset>
      )}
      <div className="form-actions span-2">
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  )
}
