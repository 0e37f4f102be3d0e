import { Navigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { ROUTES } from '../routes'
import { useAuth } from './AuthProvider'
import { PasswordForm } from './PasswordForm'
import { Loading } from '../components/ui'

/**
 * The only screen a user with force_password_reset can reach: until a new password is chosen the server refuses every other route (docs/api-reference.md §3).
 */
export function ChangePasswordPage() {
  const { t } = useTranslation('auth')
  const { status, me, logout } = useAuth()
  if (status === 'loading')
    return (
      <div className="boot">
        <Loading />
      </div>
    )
  if (!me) return <Navigate to={ROUTES.signIn} replace />
  return (
    <main className="auth-page">
      <div className="card auth-card">
        <h1>{me.force_password_reset ? t('password.chooseTitle') : t('password.changeTitle')}</h1>
        {me.force_password_reset && <p className="info-box">{t('password.temporary')}</p>}
        <PasswordForm afterSuccess="board" />
        <button type="button" className="button button-link" onClick={() => void logout()}>
          {t('common:signOut')}
        </button>
      </div>
    </main>
  )
}
