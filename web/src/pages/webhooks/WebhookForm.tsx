import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  useCreateWebhook,
  useUpdateWebhook,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
  type CreatedWebhook,
  type Webhook,
  type WebhookEvent,
  type WebhookFormat,
} from '../../api/webhooks'
import { Field, splitError, type FieldErrors } from '../../components/ui'

/** Creates a webhook or changes one: its address, the events it hears, its format and whether names go with it. */
export function WebhookForm({
  webhook,
  onSaved,
  onClose,
}: {
  webhook?: Webhook
  onSaved(result: Webhook | CreatedWebhook): void
  onClose(): void
}) {
  const { t } = useTranslation('webhooks')
  const create = useCreateWebhook()
  const update = useUpdateWebhook()
  const [url, setUrl] = useState(webhook?.url ?? '')
  const [events, setEvents] = useState<WebhookEvent[]>(webhook?.events ?? ['stage_changed', 'declined'])
  const [format, setFormat] = useState<WebhookFormat>(webhook?.format ?? 'json')
  const [includeNames, setIncludeNames] = useState(webhook?.include_names ?? false)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const busy = create.isPending || update.isPending

  return (
    <form
      noValidate
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault()
        const errs: FieldErrors = {}
        if (!url.trim()) errs.url = t('form.urlRequired')
        if (events.length === 0) errs.events = t('form.eventsRequired')
        setErrors(errs)
        setGeneral(null)
        if (Object.keys(errs).length) return
        const body = { url: url.trim(), events, format, include_names: includeNames }
        try {
          onSaved(webhook ? await update.mutateAsync({ id: webhook.id, body }) : await create.mutateAsync(body))
        } catch (err) {
          const s = splitError(err, ['url', 'events', 'format', 'include_names'])
          setErrors(s.fields)
          setGeneral(s.general)
        }
      }}
    >
      {general && (
        <p className="error-box" role="alert">
          {general}
        </p>
      )}
      <Field label={t('form.url')} error={errors.url} hint={t('form.urlHint')}>
        <input
          type="url"
          inputMode="url"
          autoComplete="off"
          value={url}
          placeholder="https://"
          onChange={(e) => setUrl(e.target.value)}
        />
      </Field>
      <EventsField events={events} error={errors.events} onChange={setEvents} />
      <Field label={t('form.format')} error={errors.format}>
        <select value={format} onChange={(e) => setFormat(e.target.value as WebhookFormat)}>
          {WEBHOOK_FORMATS.map((f) => (
            <option key={f} value={f}>
              {t(`formats.${f}`)}
            </option>
          ))}
        </select>
      </Field>
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={includeNames}
            aria-describedby="include-names-hint"
            onChange={(e) => setIncludeNames(e.target.checked)}
          />{' '}
          {t('form.includeNames')}
        </label>
        <small id="include-names-hint" className="hint">
          {t('form.includeNamesHint')}
        </small>
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('form.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('form.saving') : webhook ? t('form.save') : t('form.create')}
        </button>
      </div>
    </form>
  )
}

function EventsField({
  events,
  error,
  onChange,
}: {
  events: WebhookEvent[]
  error?: string
  onChange(events: WebhookEvent[]): void
}) {
  const { t } = useTranslation('webhooks')
  return (
    <fieldset className="field">
      <legend>{t('form.events')}</legend>
      {error && (
        <small className="field-error" role="alert">
          {error}
        </small>
      )}
      <div className="checkbox-grid">
        {WEBHOOK_EVENTS.map((kind) => (
          <label key={kind} className="checkbox">
            <input
              type="checkbox"
              checked={events.includes(kind)}
              onChange={(e) => onChange(e.target.checked ? [...events, kind] : events.filter((x) => x !== kind))}
            />{' '}
            {t(`events.${kind}`)}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
