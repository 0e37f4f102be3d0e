import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDeleteWebhook, useTestWebhook, useWebhooks, type CreatedWebhook, type Webhook } from '../../api/webhooks'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { ListStates } from '../../components/lists'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, PageHeader } from '../../components/ui'
import { DeliveriesDialog } from './DeliveriesDialog'
import { SecretDialog } from './SecretDialog'
import { WebhookForm } from './WebhookForm'
import { shortUrl, WebhooksTable } from './WebhooksTable'

/** Sends a test delivery and says in a notice whether it arrived, or why not yet. */
function useSendTest() {
  const { t } = useTranslation('webhooks')
  const notify = useNotify()
  const test = useTestWebhook()
  const send = (w: Webhook) =>
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
  return { send, sending: (w: Webhook) => test.isPending && test.variables === w.id }
}

export default function WebhooksPage() {
  const { t } = useTranslation('webhooks')
  const notify = useNotify()
  const webhooks = useWebhooks()
  const test = useSendTest()
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Webhook | null>(null)
  const [created, setCreated] = useState<CreatedWebhook | null>(null)
  const [viewing, setViewing] = useState<Webhook | null>(null)

  const saved = (result: Webhook | CreatedWebhook) => {
    setEditing(null)
    if ('secret' in result) setCreated(result)
    notify('secret' in result ? t('notice.created') : t('notice.saved'), 'success')
  }

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
      <ListStates query={webhooks} items={webhooks.data} empty={t('empty')}>
        {(items) => (
          <WebhooksTable
            webhooks={items}
            actions={{
              edit: setEditing,
              test: test.send,
              deliveries: setViewing,
              delete: setDeleting,
              testDisabled: (w) => w.url === '' || test.sending(w),
            }}
          />
        )}
      </ListStates>
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
      <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(null)} />
    </div>
  )
}

function DeleteWebhookDialog({ webhook, onClose }: { webhook: Webhook | null; onClose(): void }) {
  const { t } = useTranslation('webhooks')
  const notify = useNotify()
  const remove = useDeleteWebhook()
  return (
    <ConfirmDialog
      open={webhook !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t('confirmDelete.title')}
      message={t('confirmDelete.message')}
      confirmLabel={t('confirmDelete.confirm')}
      danger
      busy={remove.isPending}
      error={<ErrorMessage error={remove.error} />}
      onConfirm={() =>
        webhook &&
        remove.mutate(webhook.id, {
          onSuccess: () => {
            onClose()
            notify(t('notice.deleted'), 'success')
          },
        })
      }
    />
  )
}
