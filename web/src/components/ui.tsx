import { useEffect, useId, type ReactElement, type ReactNode } from 'react'
import { cloneElement, isValidElement } from 'react'
import { ApiError } from '../api/client'
import { useOnline } from '../resilience/connection'
import { setPageTitle } from './docTitle'
import { formatMinutes } from '../i18n/format'
import { useTranslation } from 'react-i18next'

export function Loading({ label }: { label?: string }) {
  // Offline, nothing arrives until the connection is back: say so instead of spinning silently.
  const online = useOnline()
  const { t } = useTranslation()
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {online ? (label ?? t('loading')) : t('waitingConnection')}
    </div>
  )
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null
  const msg = error instanceof Error ? error.message : String(error)
  return (
    <p className="error-box" role="alert">
      {msg}
    </p>
  )
}

export function PageHeader({ title, actions, docTitle }: { title: ReactNode; actions?: ReactNode; docTitle?: string }) {
  const text = docTitle ?? (typeof title === 'string' ? title : undefined)
  useEffect(() => {
    if (text) setPageTitle(text)
  }, [text])
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  )
}

interface FieldProps {
  label: ReactNode
  error?: string
  hint?: ReactNode
  children: ReactElement<{ id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }>
  className?: string
}

/** Labels its control and shows the field's error (client-side or the server's 422) under it. */
export function Field({ label, error, hint, children, className }: FieldProps) {
  const autoId = useId()
  const id = (isValidElement(children) && children.props.id) || autoId
  const errId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [error ? errId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field ${error ? 'field-invalid' : ''} ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <small id={hintId} className="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={errId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  )
}

export type FieldErrors = Record<string, string>

/**
 * Splits an error from a mutation into per-field messages (422 `detail[].loc`)
 * and a general message for everything else.
 */
export function splitError(error: unknown, knownFields: string[]): { fields: FieldErrors; general: string | null } {
  if (!(error instanceof ApiError)) {
    return { fields: {}, general: error ? ((error as Error).message ?? String(error)) : null }
  }
  if (error.status !== 422 || error.fieldErrors.length === 0) return { fields: {}, general: error.message }
  const map = error.fieldMap()
  const fields: FieldErrors = {}
  const rest: string[] = []
  for (const [key, msg] of Object.entries(map)) {
    const top = key.split('.')[0] ?? key
    if (knownFields.includes(key)) fields[key] = msg
    else if (knownFields.includes(top)) fields[top] = msg
    else rest.push(`${key}: ${msg}`)
  }
  return { fields, general: rest.length > 0 ? rest.join('; ') : null }
}

/** Dates and times in the current language (i18n/format.ts); kept here for the pages that import them from ui. */
export { formatDate, formatDateTime } from '../i18n/format'

export function minutesToTime(min: number | null | undefined): string {
  if (min == null || Number.isNaN(min)) return ''
  const h = Math.floor(min / 60)
  const m = min % 60
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`
}

export function timeToMinutes(t: string): number | null {
  const m = /^(\d{1,2}):(\d{2})/.exec(t)
  if (!m) return null
  return Number(m[1]) * 60 + Number(m[2])
}

export function formatMeetingTime(min: number | null | undefined): string {
  return formatMinutes(min)
}

/** An email address that wraps, if it must, after its local part — never in the middle of a word. */
export function Email({ address }: { address: string | undefined }) {
  if (!address) return null
  const at = address.lastIndexOf('@')
  if (at <= 0) return <span className="email">{address}</span>
  return (
    <span className="email">
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </span>
  )
}
