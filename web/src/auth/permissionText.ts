import { useTranslation } from 'react-i18next'
import { PERMISSIONS, type Permission } from '../api/types'

export interface PermissionText {
  /** The permission in plain words ("Manage users"). */
  label(permission: string): string
  /** One line on what it lets its holder do. */
  explain(permission: string): string
}

/**
 * Permissions as people read them: a short name and a one-line
 * explanation for each API permission key, in the user's language (namespace
 * `users`, keys `permissions.<key>.label|hint`, where the key's dot nests).
 * An unknown key (a newer server) shows as itself rather than as nothing.
 */
export function usePermissionText(): PermissionText {
  const { t } = useTranslation('users')
  const known = (p: string): p is Permission => (PERMISSIONS as readonly string[]).includes(p)
  return {
    label: (p) => (known(p) ? t(`permissions.${p}.label`) : p),
    explain: (p) => (known(p) ? t(`permissions.${p}.hint`) : ''),
  }
}
