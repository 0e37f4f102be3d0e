import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DELIVERIES_PAGE, useWebhookDeliveries, type Webhook, type WebhookDelivery } from '../../api/webhooks'
import { Dialog } from '../../components/Dialog'
import { CardTable, ListStates } from '../../components/lists'
import { dateFormat } from '../../i18n/format'

/** A delivery's state in plain words. */
function statusKey(d: WebhookDelivery): string {
  if (d.status === 'delivered') return 'status.delivered'
  if (d.status === 'failed') return 'status.failed'
  return d.attempts === 0 ? 'status.waiting' : 'status.retrying'
}

/** The delivery log of one webhook, newest first, a page at a time. */
export function DeliveriesDialog({
  webhook,
  label,
  onClose,
}: {
  webhook: Webhook | null
  label: string
  onClose(): void
}) {
  const { t } = useTranslation('webhooks')
  const [page, setPage] = useState(0)
  const deliveries = useWebhookDeliveries(webhook?.id ?? null, page)
  const pages = Math.max(1, Math.ceil((deliveries.data?.total ?? 0) / DELIVERIES_PAGE))

  return (
    <Dialog
      open={webhook !== null}
      onOpenChange={(o) => {
        if (!o) {
          setPage(0)
          onClose()
        }
      }}
      title={t('deliveries.title', { url: label })}
      wide
    >
      <div className="stack">
        <div className="button-row">
          <button
            type="button"
            className="button button-small"
            disabled={deliveries.isFetching}
            onClick={() => void deliveries.refetch()}
          >
            {t('deliveries.refresh')}
          </button>
        </div>
        <ListStates query={deliveries} items={deliveries.data?.items} empty={t('deliveries.empty')}>
          {(items) => <DeliveriesTable items={items} />}
        </ListStates>
        {pages > 1 && <DeliveriesPager page={page} pages={pages} onPage={setPage} />}
      </div>
    </Dialog>
  )
}

function DeliveriesTable({ items }: { items: readonly WebhookDelivery[] }) {
  const { t, i18n } = useTranslation('webhooks')
  const when = (iso: string | null) =>
    iso
      ? dateFormat({ dateStyle: 'medium', timeStyle: 'medium' }, i18n.language).format(new Date(iso))
      : t('deliveries.none')
  const answer = (d: WebhookDelivery) =>
    d.last_status_code !== null
      ? t('deliveries.httpStatus', { code: d.last_status_code })
      : (d.last_error ?? t('deliveries.none'))
  return (
    <CardTable
      testId="deliveries"
      columns={[
        t('deliveries.event'),
        t('deliveries.status'),
        t('deliveries.attempts'),
        t('deliveries.answer'),
        t('deliveries.created'),
        t('deliveries.delivered'),
      ]}
    >
      {items.map((d) => (
        <tr key={d.id} data-testid="delivery-row">
          <td className="cell-title">{t(`events.${d.event}`, { defaultValue: d.event })}</td>
          <td data-label={t('deliveries.status')}>{t(statusKey(d))}</td>
          <td data-label={t('deliveries.attempts')}>{d.attempts}</td>
          <td data-label={t('deliveries.answer')} style={{ overflowWrap: 'anywhere' }}>
            {answer(d)}
          </td>
          <td data-label={t('deliveries.created')}>{when(d.created_at)}</td>
          <td data-label={t('deliveries.delivered')}>{when(d.delivered_at)}</td>
        </tr>
      ))}
    </CardTable>
  )
}

/** Pages are counted from 0 here and shown from 1. */
function DeliveriesPager({ page, pages, onPage }: { page: number; pages: number; onPage(page: number): void }) {
  const { t } = useTranslation('webhooks')
  return (
    <nav className="pagination" aria-label={t('deliveries.page', { page: page + 1, pages })}>
      <button type="button" className="button button-small" disabled={page === 0} onClick={() => onPage(page - 1)}>
        ← {t('deliveries.previous')}
      </button>
      <span className="small" aria-current="page">
        {t('deliveries.page', { page: page + 1, pages })}
      </span>
      <button
        type="button"
        className="button button-small"
        disabled={page + 1 >= pages}
        onClick={() => onPage(page + 1)}
      >
        {t('deliveries.next')} →
      </button>
    </nav>
  )
}
