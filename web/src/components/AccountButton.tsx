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
    // The name comes from the content, not aria-label (axe label-content-name-mismatch): the
    // hidden words hold the visible name; initials and name are shown for the eye only.
    <button type="button" className="user-button" {...props}>
      <span className="visually-hidden">{t('nav.accountMenu', { name })}</span>
      <span className="avatar" aria-hidden="true">
        {(me.fname[0] ?? '') + (me.lname[0] ?? '')}
      </span>
      <span className="user-name" aria-hidden="true">
        {name}
      </span>
    </button>
  )
}
