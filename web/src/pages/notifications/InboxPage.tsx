import { useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { INBOX_PAGE_SIZE, useInbox, useMarkRead } from '../../api/notifications'
import type { Notification } from '../../api/types'
import { Pagination } from '../../components/Pagination'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import '../../components/notifications.css'
import { dateFormat } from '../../i18n/format'

function InboxItem({ n }: { n: Notification }) {
  const { t, i18n } = useTranslation('notifications')
  const markRead = useMarkRead()
  const unread = n.read_at === null
  const when = dateFormat({ dateStyle: 'medium', timeStyle: 'short' }, i18n.language).format(new Date(n.created_at))
  return (
    <li className={`inbox-item${unread ? ' unread' : ''}`} data-testid={`notification-${n.id}`}>
      <div className="inbox-body">
        <div className="inbox-text">{n.text}</div>
        <div className="muted small">
          {t(`kind.${n.kind}`)} · <time dateTime={n.created_at}>{when}</time>
          {unread && <span className="visually-hidden"> · {t('unread')}</span>}
        </div>
      </div>
      <div className="inbox-actions">
        {n.proposal_id !== null && (
          <Link
            className="button button-small"
            to={ROUTES.proposal(n.proposal_id)}
            onClick={() => unread && markRead.mutate(n.id)}
          >
            {t('open')}
          </Link>
        )}
        {unread && (
          <button
            type="button"
            className="button button-small"
            disabled={markRead.isPending}
            onClick={() => markRead.mutate(n.id)}
          >
            {t('markRead')}
          </button>
        )}
      </div>
    </li>
  )
}

/** The inbox (docs/api-reference.md §11): newest first, all or unread only, read one or all. */
export default function InboxPage() {
  const { t } = useTranslation('notifications')
  const [unreadOnly, setUnreadOnly] = useState(false)
  const [page, setPage] = useState(1)
  const inbox = useInbox(unreadOnly, page)
  const markAll = useMarkRead()
  const unread = inbox.data?.unread ?? 0
  const choose = (value: boolean) => {
    setUnreadOnly(value)
    setPage(1)
  }
  return (
    <div>
      <PageHeader
        title={t('title')}
        actions={
          <button
            type="button"
            className="button"
            disabled={unread === 0 || markAll.isPending}
            onClick={() => markAll.mutate(null)}
          >
            {t('markAllRead')}
          </button>
        }
      />
      <section className="card">
        <div className="inbox-filter" role="group" aria-label={t('filter')}>
          <button
            type="button"
            className={`button button-small${unreadOnly ? '' : ' button-primary'}`}
            aria-pressed={!unreadOnly}
            onClick={() => choose(false)}
          >
            {t('all')}
          </button>
          <button
            type="button"
            className={`button button-small${unreadOnly ? ' button-primary' : ''}`}
            aria-pressed={unreadOnly}
            onClick={() => choose(true)}
          >
            {t('unreadCount', { count: unread })}
          </button>
        </div>
        <ErrorMessage error={inbox.error ?? markAll.error} />
        {inbox.isLoading && <Loading />}
        {inbox.data && inbox.data.items.length === 0 && <Empty>{unreadOnly ? t('emptyUnread') : t('empty')}</Empty>}
        {inbox.data && inbox.data.items.length > 0 && (
          <>
            <ul className="inbox-list">
              {inbox.data.items.map((n) => (
                <InboxItem key={n.id} n={n} />
              ))}
            </ul>
            {inbox.data.total > INBOX_PAGE_SIZE && (
              <Pagination page={page} pageSize={INBOX_PAGE_SIZE} total={inbox.data.total} onPage={setPage} />
            )}
          </>
        )}
      </section>
    </div>
  )
}
