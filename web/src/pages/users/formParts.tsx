import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Field } from '../../components/ui'

/** Pieces the users page's forms share: the dialog's buttons and a secret to copy. */

export function Actions({
  busy,
  label,
  onClose,
  danger,
}: {
  busy: boolean
  label: string
  onClose(): void
  danger?: boolean
}) {
  const { t } = useTranslation('users')
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onClose}>
        {t('form.cancel')}
      </button>
      <button type="submit" className={`button ${danger ? 'button-danger' : 'button-primary'}`} disabled={busy}>
        {busy ? t('form.saving') : label}
      </button>
    </div>
  )
}

export function CopyableSecret({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('users')
  const [copied, setCopied] = useState(false)
  return (
    <div className="secret">
      <Field label={label}>
        <input readOnly value={value} onFocus={(e) => e.target.select()} className="mono" />
      </Field>
      <button
        type="button"
        className="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }}
      >
        {copied ? t('form.copied') : t('form.copy')}
      </button>
    </div>
  )
}

/** A form's refusal that belongs to no one field. */
export function GeneralError({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <p className="error-box" role="alert">
      {message}
    </p>
  )
}
