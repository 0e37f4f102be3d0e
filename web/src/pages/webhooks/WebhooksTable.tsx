import { useTranslation } from 'react-i18next'
import type { Webhook } from '../../api/webhooks'
import { CardTable } from '../../components/lists'

/** An address shortened for a table cell (the full one is in the edit form). */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url)
    const path = u.pathname.length > 18 ? `${u.pathname.slice(0, 16)}…` : u.pathname
    return `${u.host}${path === '/' ? '' : path}`
  } catch {
    return url
  }
}

export interface WebhookActions {
  edit(w: Webhook): void
  test(w: Webhook): void
  deliveries(w: Webhook): void
  delete(w: Webhook): void
  /** Whether the test button of this webhook is off (no address, or a test on its way). */
  testDisabled(w: Webhook): boolean
}

/** The stake's webhooks, a row each with its buttons. */
export function WebhooksTable({ webhooks, actions }: { webhooks: readonly Webhook[]; actions: WebhookActions }) {
  const { t } = useTranslation('webhooks')
  return (
    <CardTable
      columns={[t('columns.url'), t('columns.format'), t('columns.events'), t('columns.names')]}
      actionsLabel={t('columns.actions')}
    >
      {webhooks.map((w) => (
        <WebhookRow key={w.id} webhook={w} actions={actions} />
      ))}
    </CardTable>
  )
}

const ROW_ACTIONS = ['edit', 'test', 'deliveries', 'delete'] as const

function WebhookRow({ webhook: w, actions }: { webhook: Webhook; actions: WebhookActions }) {
  const { t } = useTranslation('webhooks')
  // An imported webhook has no address until it is entered again (it sends nothing).
  const label = w.url === '' ? t('toReenter') : shortUrl(w.url)
  return (
    <tr data-testid="webhook-row">
      <td className="cell-title">{w.url === '' ? <strong>{label}</strong> : <span title={w.url}>{label}</span>}</td>
      <td data-label={t('columns.format')}>{t(`formats.${w.format}`)}</td>
      <td data-label={t('columns.events')}>{w.events.map((e) => t(`events.${e}`)).join(', ')}</td>
      <td data-label={t('columns.names')}>{w.include_names ? t('names.yes') : t('names.no')}</td>
      <td className="actions-cell">
        {ROW_ACTIONS.map((action) => (
          <button
            key={action}
            type="button"
            className="button button-small"
            disabled={action === 'test' && actions.testDisabled(w)}
            onClick={() => actions[action](w)}
            aria-label={t(`actions.${action}Label`, { url: label })}
          >
            {t(`actions.${action}`)}
          </button>
        ))}
      </td>
    </tr>
  )
}
