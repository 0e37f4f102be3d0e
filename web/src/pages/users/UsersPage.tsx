import { useState } from 'react'
import { useFilterParams } from '../../components/filterParams'
import * as Menu from '@radix-ui/react-dropdown-menu'
import { useTranslation } from 'react-i18next'
import { useUpdateUser, useUsers } from '../../api/users'
import type { User } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { ConfirmDialog, Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Pagination } from '../../components/Pagination'
import { Email, Empty, ErrorMessage, formatDate, Loading, PageHeader } from '../../components/ui'
import { CreateUserForm, EditUserForm, GrantsForm, ResetPasswordForm } from './UserForms'
import { useInvitations } from './Invitations'

const PAGE = 25

type Action = { kind: 'create' } | { kind: 'edit' | 'grants' | 'reset' | 'deactivate'; user: User }

const nameOf = (u: User) => `${u.fname} ${u.lname}`

export default function UsersPage() {
  const { t } = useTranslation('users')
  const me = useMe()
  const notify = useNotify()
  const [params, update] = useFilterParams()
  const q = params.get('q') ?? ''
  const active = params.get('active') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [search, setSearch] = useState(q)
  const [action, setAction] = useState<Action | null>(null)

  const query = {
    q,
    active: active === 'yes' ? true : active === 'no' ? false : undefined,
    limit: PAGE,
    offset: (page - 1) * PAGE,
  }
  const list = useUsers(query)
  const invitations = useInvitations()

  const toggleActive = useUpdateUser({
    onSuccess: (u) => {
      setAction(null)
      notify(t(u.active ? 'notice.nowActive' : 'notice.nowInactive', { name: nameOf(u) }), 'success')
    },
    // A failed deactivation shows in its confirmation dialog; a failed activation as a notice.
    onError: (err, { body }) => body.active && notify(err.message, 'error'),
  })
  const setActive = (u: User) =>
    toggleActive.mutate({ id: u.id, body: { email: u.email, fname: u.fname, lname: u.lname, active: !u.active } })

  const close = () => setAction(null)
  const done = (msg?: string) => {
    if (msg) notify(msg, 'success')
  }

  return (
    <div>
      <PageHeader
        title={t('title')}
        actions={
          <button type="button" className="button button-primary" onClick={() => setAction({ kind: 'create' })}>
            {t('newUser')}
          </button>
        }
      />
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault()
          update({ q: search.trim() })
        }}
      >
        <div className="field field-inline">
          <label htmlFor="users-q">{t('search.label')}</label>
          <input
            id="users-q"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('search.placeholder')}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="users-active">{t('search.status')}</label>
          <select id="users-active" value={active} onChange={(e) => update({ active: e.target.value })}>
            <option value="">{t('search.all')}</option>
            <option value="yes">{t('search.active')}</option>
            <option value="no">{t('search.inactive')}</option>
          </select>
        </div>
        <button type="submit" className="button">
          {t('search.submit')}
        </button>
      </form>
      {list.isLoading && <Loading />}
      <ErrorMessage error={list.error} />
      {list.data && list.data.items.length === 0 && <Empty>{t('empty')}</Empty>}
      {list.data && list.data.items.length > 0 && (
        <>
          <div className="table-scroll table-scroll-cards">
            <table className="table table-cards">
              <thead>
                <tr>
                  <th scope="col">{t('columns.name')}</th>
                  <th scope="col">{t('columns.email')}</th>
                  <th scope="col">{t('columns.status')}</th>
                  <th scope="col">{t('columns.created')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('columns.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((u) => (
                  <tr key={u.id} className={u.active ? undefined : 'inactive'}>
                    <td className="cell-title">
                      {u.fname} {u.lname}
                      {u.id === me.id && <span className="muted small"> {t('you')}</span>}
                    </td>
                    <td data-label={t('columns.email')}>
                      {u.email ? <Email address={u.email} /> : <span className="muted">{t('rosterOnly')}</span>}
                    </td>
                    <td data-label={t('columns.status')}>
                      {u.active ? t('status.active') : t('status.inactive')}
                      {u.force_password_reset && (
                        <span className="badge badge-warn">{t('status.mustChangePassword')}</span>
                      )}
                      {invitations.badge(u)}
                    </td>
                    <td data-label={t('columns.created')}>{formatDate(u.created_at)}</td>
                    <td className="actions-cell">
                      <Menu.Root>
                        <Menu.Trigger
                          className="button button-small"
                          aria-label={t('actions.menuFor', { name: nameOf(u) })}
                        >
                          {t('actions.menu')} ▾
                        </Menu.Trigger>
                        <Menu.Portal>
                          <Menu.Content className="menu" align="end" sideOffset={4}>
                            <Menu.Item className="menu-item" onSelect={() => setAction({ kind: 'edit', user: u })}>
                              {t('actions.edit')}
                            </Menu.Item>
                            <Menu.Item className="menu-item" onSelect={() => setAction({ kind: 'grants', user: u })}>
                              {t('actions.access')}
                            </Menu.Item>
                            <Menu.Item className="menu-item" onSelect={() => setAction({ kind: 'reset', user: u })}>
                              {t('actions.resetPassword')}
                            </Menu.Item>
                            {u.active && u.email && u.id !== me.id && (
                              <Menu.Item className="menu-item" onSelect={() => invitations.send(u)}>
                                {invitations.label(u)}
                              </Menu.Item>
                            )}
                            {u.id !== me.id && (
                              <Menu.Item
                                className="menu-item"
                                onSelect={() => {
                                  // Deactivating signs the user out everywhere: confirm first.
                                  if (u.active) {
                                    toggleActive.reset()
                                    setAction({ kind: 'deactivate', user: u })
                                  } else setActive(u)
                                }}
                              >
                                {u.active ? t('actions.deactivate') : t('actions.activate')}
                              </Menu.Item>
                            )}
                          </Menu.Content>
                        </Menu.Portal>
                      </Menu.Root>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pageSize={PAGE} total={list.data.total} onPage={(p) => update({ page: String(p) })} />
        </>
      )}

      <Dialog open={action?.kind === 'create'} onOpenChange={(o) => !o && close()} title={t('dialogs.newUser')}>
        {action?.kind === 'create' && <CreateUserForm onDone={() => done()} onClose={close} />}
      </Dialog>
      <Dialog open={action?.kind === 'edit'} onOpenChange={(o) => !o && close()} title={t('dialogs.editUser')}>
        {action?.kind === 'edit' && (
          <EditUserForm
            user={action.user}
            onDone={() => {
              done(t('notice.saved'))
              close()
            }}
            onClose={close}
          />
        )}
      </Dialog>
      <Dialog
        open={action?.kind === 'grants'}
        onOpenChange={(o) => !o && close()}
        title={action?.kind === 'grants' ? t('dialogs.accessFor', { name: nameOf(action.user) }) : t('dialogs.access')}
        description={t('dialogs.accessDescription')}
      >
        {action?.kind === 'grants' && (
          <GrantsForm
            user={action.user}
            onDone={() => {
              done(t('notice.accessSaved'))
              close()
            }}
            onClose={close}
          />
        )}
      </Dialog>
      <Dialog
        open={action?.kind === 'reset'}
        onOpenChange={(o) => !o && close()}
        title={
          action?.kind === 'reset'
            ? t('dialogs.resetPasswordFor', { name: nameOf(action.user) })
            : t('dialogs.resetPassword')
        }
        description={t('dialogs.resetDescription')}
      >
        {action?.kind === 'reset' && <ResetPasswordForm user={action.user} onDone={() => done()} onClose={close} />}
      </Dialog>
      {invitations.dialog}
      <ConfirmDialog
        open={action?.kind === 'deactivate'}
        onOpenChange={(o) => !o && close()}
        title={action?.kind === 'deactivate' ? t('deactivate.title', { name: nameOf(action.user) }) : ''}
        message={action?.kind === 'deactivate' ? t('deactivate.consequences', { name: nameOf(action.user) }) : ''}
        confirmLabel={t('deactivate.confirm')}
        danger
        busy={toggleActive.isPending}
        error={<ErrorMessage error={toggleActive.error} />}
        onConfirm={() => action?.kind === 'deactivate' && setActive(action.user)}
      />
    </div>
  )
}
