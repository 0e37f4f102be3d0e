import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useUpdateUser, useUsers } from '../../api/users'
import type { User } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { useFilterParams } from '../../components/filterParams'
import { useNotify } from '../../components/Notice'
import { Pagination } from '../../components/Pagination'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { useInvitations } from './Invitations'
import { UserDialogs } from './UserDialogs'
import { UserFilters } from './UserFilters'
import { nameOf, UserRow, type UserAction } from './UserRow'

const PAGE = 25

export default function UsersPage() {
  const { t } = useTranslation('users')
  const me = useMe()
  const notify = useNotify()
  const [params, update] = useFilterParams()
  const q = params.get('q') ?? ''
  const active = params.get('active') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [action, setAction] = useState<UserAction | null>(null)

  const list = useUsers({
    q,
    active: active === 'yes' ? true : active === 'no' ? false : undefined,
    limit: PAGE,
    offset: (page - 1) * PAGE,
  })
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
  const onAction = (next: UserAction) => {
    // Deactivating signs the user out everywhere: its confirmation starts clean.
    if (next.kind === 'deactivate') toggleActive.reset()
    setAction(next)
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
      <UserFilters q={q} active={active} update={update} />
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
                  <UserRow
                    key={u.id}
                    user={u}
                    meId={me.id}
                    invitations={invitations}
                    onAction={onAction}
                    onToggleActive={setActive}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pageSize={PAGE} total={list.data.total} onPage={(p) => update({ page: String(p) })} />
        </>
      )}
      <UserDialogs
        action={action}
        close={() => setAction(null)}
        done={(msg) => msg && notify(msg, 'success')}
        deactivation={{
          busy: toggleActive.isPending,
          error: <ErrorMessage error={toggleActive.error} />,
          onConfirm: () => action?.kind === 'deactivate' && setActive(action.user),
        }}
      />
      {invitations.dialog}
    </div>
  )
}
