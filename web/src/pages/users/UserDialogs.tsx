import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { CreateUserForm, EditUserForm } from './UserForms'
import { GrantsForm } from './GrantsForm'
import { ResetPasswordForm } from './ResetPasswordForm'
import { nameOf, type UserAction } from './UserRow'

interface Props {
  action: UserAction | null
  close(): void
  /** A success notice, when there is one to give. */
  done(message?: string): void
  deactivation: { busy: boolean; error: ReactNode; onConfirm(): void }
}

/** The users page's dialogs: new user, edit, access, reset password, and the deactivation's confirmation. */
export function UserDialogs({ action, close, done, deactivation }: Props) {
  const { t } = useTranslation('users')
  const onOpenChange = (open: boolean) => !open && close()
  const user = action && action.kind !== 'create' ? action.user : null
  const saved = (message: string) => () => {
    done(message)
    close()
  }
  return (
    <>
      <Dialog open={action?.kind === 'create'} onOpenChange={onOpenChange} title={t('dialogs.newUser')}>
        {action?.kind === 'create' && <CreateUserForm onDone={() => done()} onClose={close} />}
      </Dialog>
      <Dialog open={action?.kind === 'edit'} onOpenChange={onOpenChange} title={t('dialogs.editUser')}>
        {action?.kind === 'edit' && (
          <EditUserForm user={action.user} onDone={saved(t('notice.saved'))} onClose={close} />
        )}
      </Dialog>
      <Dialog
        open={action?.kind === 'grants'}
        onOpenChange={onOpenChange}
        title={user && action?.kind === 'grants' ? t('dialogs.accessFor', { name: nameOf(user) }) : t('dialogs.access')}
        description={t('dialogs.accessDescription')}
      >
        {action?.kind === 'grants' && (
          <GrantsForm user={action.user} onDone={saved(t('notice.accessSaved'))} onClose={close} />
        )}
      </Dialog>
      <Dialog
        open={action?.kind === 'reset'}
        onOpenChange={onOpenChange}
        title={
          user && action?.kind === 'reset'
            ? t('dialogs.resetPasswordFor', { name: nameOf(user) })
            : t('dialogs.resetPassword')
        }
        description={t('dialogs.resetDescription')}
      >
        {action?.kind === 'reset' && <ResetPasswordForm user={action.user} onDone={() => done()} onClose={close} />}
      </Dialog>
      <ConfirmDialog
        open={action?.kind === 'deactivate'}
        onOpenChange={onOpenChange}
        title={user && action?.kind === 'deactivate' ? t('deactivate.title', { name: nameOf(user) }) : ''}
        message={user && action?.kind === 'deactivate' ? t('deactivate.consequences', { name: nameOf(user) }) : ''}
        confirmLabel={t('deactivate.confirm')}
        danger
        busy={deactivation.busy}
        error={deactivation.error}
        onConfirm={deactivation.onConfirm}
      />
    </>
  )
}
