import { Suspense } from 'react'
import { NavLink } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useMe } from '../auth/AuthProvider'
import { can, isBishop } from '../auth/roles'
import { ROUTES } from '../routes'

function Links() {
  const { t } = useTranslation('sustainings')
  const me = useMe()
  const stake = can(me, 'proposals.view') || can(me, 'proposals.manage')
  if (!stake && !isBishop(me)) return null
  const cls = ({ isActive }: { isActive: boolean }) => (isActive ? 'active' : undefined)
  return (
    <>
      <NavLink to={ROUTES.sustainings} className={cls}>
        {t('nav.sustainings')}
      </NavLink>
      <NavLink to={ROUTES.archive} className={cls}>
        {t('nav.archive')}
      </NavLink>
    </>
  )
}

/** The Sustainings and Archive links of the main navigation; their words load with the namespace. */
export function SustainingsNav() {
  return (
    <Suspense fallback={null}>
      <Links />
    </Suspense>
  )
}
