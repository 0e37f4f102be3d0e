import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  useCreateWebhook,
  useDeleteWebhook,
  useTestWebhook,
  useUpdateWebhook,
  useWebhooks,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMATS,
  type CreatedWebhook,
  type Webhook,
  type WebhookEvent,
  type WebhookFormat,
} from '../../api/webhooks'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Field, Loading, PageHeader, splitError, type FieldErrors } from '../../components/ui'
import { DeliveriesDialog } from './DeliveriesDialog'

/** An address shortened for a table cell (the full one is in the edit form). */
function shortUrl(url: string): string {
  try {
    const u = new URL(url)
    const path = u.pathname.length > 18 ? `${u.pathname.slice(0, 16)}…` : u.pathname
    return `${u.host}${path === '/' ? '' : path}`
  } catch {
    return url
  }
}

function WebhookForm({
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
      <fieldset className="field">
        <legend>{t('form.events')}</legend>
        {errors.events && (
          <small className="field-error" role="alert">
            {errors.events}
          </small>
        )}
        <div className="checkbox-grid">
          {WEBHOOK_EVENTS.map((kind) => (
            <label key={kind} className="checkbox">
              <input
                type="checkbox"
                checked={events.includes(kind)}
                onChange={(e) => setEvents(e.target.checked ? [...events, kind] : events.filter((x) => x !== kind))}
              />{' '}
              {t(`events.${kind}`)}
            </label>
          ))}
        </div>
      </fieldset>
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

/** Shown once after creation: the signing secret, with a copy button and a plain warning. */
function SecretDialog({ created, onClose }: { created: CreatedWebhook | null; onClose(): void }) {
  const { t } = useTranslation('webhooks')
  const notify = useNotify()
  return (
    <Dialog open={created !== null} onOpenChange={(o) => !o && onClose()} title={t('secret.title')}>
      {created && (
        <div className="stack">
          <p className="error-box" role="alert">
            {t('secret.warning')}
          </p>
          <p className="muted">{t('secret.explain')}</p>
          <div className="secret">
            <Field label={t('secret.label')}>
              <input
                readOnly
                value={created.secret}
                data-testid="webhook-secret"
                onFocus={(e) => e.currentTarget.select()}
              />
            </Field>
            <button
              type="button"
              className="button"
              onClick={() =>
                void navigator.clipboard?.writeText(created.secret).then(
                  () => notify(t('secret.copied'), 'success'),
                  () => notify(t('secret.copyFailed'), 'error'),
                )
              }
            >
              {t('secret.copy')}
            </button>
          </div>
          <div className="dialog-actions">
            <button type="button" className="button button-primary" onClick={onClose}>
              {t('secret.done')}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  )
}

export default function WebhooksPage() {
  const { t } = useTranslation('webhooks')
  const notify = useNotify()
  const webhooks = useWebhooks()
  const remove = useDeleteWebhook()
  const test = useTestWebhook()
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Webhook | null>(null)
  const [created, setCreated] = useState<CreatedWebhook | null>(null)
  const [viewing, setViewing] = useState<Webhook | null>(null)

  const saved = (result: Webhook | CreatedWebhook) => {
    setEditing(null)
    if ('secret' in result) setCreated(result)
    notify('secret' in result ? t('notice.created') : t('notice.saved'), 'success')
  }
  const sendTest = (w: Webhook) =>
    test.mutate(w.id, {
      onSuccess: (d) =>
        d.status === 'delivered'
          ? notify(t('notice.testDelivered'), 'success')
          : notify(
              t('notice.testPending', {
                reason: d.last_status_code
                  ? t('deliveries.httpStatus', { code: d.last_status_code })
                  : (d.last_error ?? t('status.waiting')),
              }),
              'error',
            ),
      onError: (err) => notify(err.message, 'error'),
    })

  return (
    <div>
      <PageHeader
        title={t('title')}
        actions={
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            {t('new')}
          </button>
        }
      />
      <p className="muted">{t('intro')}</p>
      {webhooks.isLoading && <Loading />}
      <ErrorMessage error={webhooks.error} />
      {webhooks.data && webhooks.data.length === 0 && <Empty>{t('empty')}</Empty>}
      {webhooks.data && webhooks.data.length > 0 && (
        <div className="table-scroll table-scroll-cards">
          <table className="table table-cards">
            <thead>
              <tr>
                <th scope="col">{t('columns.url')}</th>
                <th scope="col">{t('columns.format')}</th>
                <th scope="col">{t('columns.events')}</th>
                <th scope="col">{t('columns.names')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.map((w) => {
                // An imported webhook has no address until it is entered again (it sends nothing).
                const label = w.url === '' ? t('toReenter') : shortUrl(w.url)
                return (
                  <tr key={w.id} data-testid="webhook-row">
                    <td className="cell-title">
                      {w.url === '' ? <strong>{label}</strong> : <span title={w.url}>{label}</span>}
                    </td>
                    <td data-label={t('columns.format')}>{t(`formats.${w.format}`)}</td>
                    <td data-label={t('columns.events')}>{w.events.map((e) => t(`events.${e}`)).join(', ')}</td>
                    <td data-label={t('columns.names')}>{w.include_names ? t('names.yes') : t('names.no')}</td>
                    <td className="actions-cell">
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setEditing(w)}
                        aria-label={t('actions.editLabel', { url: label })}
                      >
                        {t('actions.edit')}
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        disabled={w.url === '' || (test.isPending && test.variables === w.id)}
                        onClick={() => sendTest(w)}
                        aria-label={t('actions.testLabel', { url: label })}
                      >
                        {t('actions.test')}
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setViewing(w)}
                        aria-label={t('actions.deliveriesLabel', { url: label })}
                      >
                        {t('actions.deliveries')}
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setDeleting(w)}
                        aria-label={t('actions.deleteLabel', { url: label })}
                      >
                        {t('actions.delete')}
                      </button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing === 'new' ? t('form.newTitle') : t('form.editTitle')}
      >
        {editing !== null && (
          <WebhookForm
            webhook={editing === 'new' ? undefined : editing}
            onSaved={saved}
            onClose={() => setEditing(null)}
          />
        )}
      </Dialog>
      <SecretDialog created={created} onClose={() => setCreated(null)} />
      <DeliveriesDialog
        webhook={viewing}
        label={viewing ? shortUrl(viewing.url) : ''}
        onClose={() => setViewing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t('confirmDelete.title')}
        message={t('confirmDelete.message')}
        confirmLabel={t('confirmDelete.confirm')}
        danger
        busy={remove.isPending}
        error={<ErrorMessage error={remove.error} />}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null)
              notify(t('notice.deleted'), 'success')
            },
          })
        }
      />
    </div>
  )
}
