import * as Menu from '@radix-ui/react-dropdown-menu'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { User } from '../../api/types'
import { Email, formatDate } from '../../components/ui'
import type { useInvitations } from './Invitations'

export type UserAction = { kind: 'create' } | { kind: 'edit' | 'grants' | 'reset' | 'deactivate'; user: User }

export const nameOf = (u: User) => `${u.fname} ${u.lname}`

/**
 * A user's status: inactive; on the roster (no password: imported or added
 * without one, not invited or not yet arrived — never "must change password");
 * or an active account.
 */
function Status({ user, invitation }: { user: User; invitation: ReactNode }) {
  const { t } = useTranslation('users')
  if (!user.active) return <>{t('status.inactive')}</>
  if (user.roster) return invitation ?? <span className="badge">{t('status.onRoster')}</span>
  return (
    <>
      {t('status.active')}
      {user.force_password_reset && <span className="badge badge-warn">{t('status.mustChangePassword')}</span>}
      {invitation}
    </>
  )
}

interface RowProps {
  user: User
  meId: number
  invitations: ReturnType<typeof useInvitations>
  onAction(action: UserAction): void
  onToggleActive(user: User): void
}

/** One row of the users table: name, email, status, created, and its actions. */
export function UserRow({ user: u, meId, invitations, onAction, onToggleActive }: RowProps) {
  const { t } = useTranslation('users')
  const invitation = invitations.badge(u)
  const invitable = u.active && u.email !== null && u.id !== meId
  return (
    <tr className={u.active ? undefined : 'inactive'}>
      <td className="cell-title">
        {u.fname} {u.lname}
        {u.id === meId && <span className="muted small"> {t('you')}</span>}
      </td>
      <td data-label={t('columns.email')}>
        {u.email ? <Email address={u.email} /> : <span className="muted">{t('rosterOnly')}</span>}
      </td>
      <td data-label={t('columns.status')}>
        <Status user={u} invitation={invitation} />
      </td>
      <td data-label={t('columns.created')}>{formatDate(u.created_at)}</td>
      <td className="actions-cell">
        {invitable && u.roster && !invitation && (
          <button
            type="button"
            className="button button-small"
            aria-label={t('actions.inviteFor', { name: nameOf(u) })}
            onClick={() => invitations.send(u)}
          >
            {t('actions.invite')}
          </button>
        )}{' '}
        <Menu.Root>
          <Menu.Trigger className="button button-small" aria-label={t('actions.menuFor', { name: nameOf(u) })}>
            {t('actions.menu')} ▾
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content className="menu" align="end" sideOffset={4}>
              <Menu.Item className="menu-item" onSelect={() => onAction({ kind: 'edit', user: u })}>
                {t('actions.edit')}
              </Menu.Item>
              <Menu.Item className="menu-item" onSelect={() => onAction({ kind: 'grants', user: u })}>
                {t('actions.access')}
              </Menu.Item>
              {/* A roster entry has no password to reset: it is invited instead. */}
              {!u.roster && (
                <Menu.Item className="menu-item" onSelect={() => onAction({ kind: 'reset', user: u })}>
                  {t('actions.resetPassword')}
                </Menu.Item>
              )}
              {invitable && (
                <Menu.Item className="menu-item" onSelect={() => invitations.send(u)}>
                  {invitations.label(u)}
                </Menu.Item>
              )}
              {u.id !== meId && (
                <Menu.Item
                  className="menu-item"
                  onSelect={() => (u.active ? onAction({ kind: 'deactivate', user: u }) : onToggleActive(u))}
                >
                  {u.active ? t('actions.deactivate') : t('actions.activate')}
                </Menu.Item>
              )}
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      </td>
    </tr>
  )
}
