import type { ComponentPropsWithoutRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useMe } from '../auth/AuthProvider'
import { fullName } from '../auth/roles'

/** The menu's button, also shown (inert) while the menu's code loads. */
export function AccountButton(props: ComponentPropsWithoutRef<'button'>) {
  const { t } = useTranslation()
  const me = useMe()
  const name = fullName(me)
  return (
    <button type="button" className="user-button" aria-label={t('nav.accountMenu', { name })} {...props}>
      <span className="avatar" aria-hidden="true">
        {(me.fname[0] ?? '') + (me.lname[0] ?? '')}
      </span>
      <span className="user-name">{name}</span>
    </button>
  )
}
