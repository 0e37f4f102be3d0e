import { useEffect } from 'react'
import { NavLink } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useUnreadCount } from '../api/notifications'
import { ROUTES } from '../routes'
import './notifications.css'

/** The bell in the top bar: opens the inbox; the badge counts unread notifications. */
export function NotificationBell() {
  const { t } = useTranslation('notifications')
  const unread = useUnreadCount().data ?? 0
  const shown = unread > 99 ? '99+' : String(unread)
  // The installed app's icon shows the same count; it drops as soon as the inbox does
  // (work that is done is marked read on the server, docs/api-reference.md §11).
  useEffect(() => {
    const nav = navigator as Navigator & {
      setAppBadge?: (n?: number) => Promise<void>
      clearAppBadge?: () => Promise<void>
    }
    if (!nav.setAppBadge || !nav.clearAppBadge) return
    void (unread > 0 ? nav.setAppBadge(unread) : nav.clearAppBadge()).catch(() => undefined)
  }, [unread])
  return (
    <NavLink
      to={ROUTES.inbox}
      className={({ isActive }) => `bell${isActive ? ' active' : ''}`}
      aria-label={t('bell.label', { count: unread })}
      data-testid="bell"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="20"
        height="20"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      {unread > 0 && (
        <span className="bell-count" data-testid="bell-count">
          {shown}
        </span>
      )}
    </NavLink>
  )
}
