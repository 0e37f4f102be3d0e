import { useNavigate } from 'react-router'
import * as Menu from '@radix-ui/react-dropdown-menu'
import { useTranslation } from 'react-i18next'
import { useAuth, useMe } from '../auth/AuthProvider'
import { canAdministerStake } from '../auth/roles'
import { ROUTES } from '../routes'
import { AccountButton } from './AccountButton'

/**
 * The signed-in user's menu. Its own chunk (see Layout): the menu library is
 * the largest part of it and nobody needs it before signing in.
 */
export default function AccountMenu() {
  const { t } = useTranslation()
  const me = useMe()
  const { logout } = useAuth()
  const navigate = useNavigate()
  return (
    <Menu.Root>
      <Menu.Trigger asChild>
        <AccountButton />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu" align="end" sideOffset={6}>
          <Menu.Label className="menu-label">{me.email}</Menu.Label>
          <Menu.Item className="menu-item" onSelect={() => navigate(ROUTES.profile)}>
            {t('nav.profile')}
          </Menu.Item>
          {canAdministerStake(me) && (
            <Menu.Item className="menu-item" onSelect={() => navigate(ROUTES.stakeSettings)}>
              {t('nav.stake')}
            </Menu.Item>
          )}
          <Menu.Separator className="menu-sep" />
          <Menu.Item
            className="menu-item"
            onSelect={() => {
              void logout().then(() => navigate(ROUTES.signIn, { replace: true }))
            }}
          >
            {t('signOut')}
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  )
}
