import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import * as Menu from '@radix-ui/react-dropdown-menu'
import { api, apiPage } from '../../api/client'
import { qk } from '../../api/queries'
import type { User } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Pagination } from '../../components/Pagination'
import { Email, Empty, ErrorMessage, formatDate, Loading, PageHeader } from '../../components/ui'
import { CreateUserForm, EditUserForm, GrantsForm, ResetPasswordForm } from './UserForms'

const PAGE = 25

type Action = { kind: 'create' } | { kind: 'edit' | 'grants' | 'reset'; user: User }

export default function UsersPage() {
  const me = useMe()
  const qc = useQueryClient()
  const notify = useNotify()
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const active = params.get('active') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [search, setSearch] = useState(q)
  const [action, setAction] = useState<Action | null>(null)

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params)
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v)
      else next.delete(k)
    }
    if (!('page' in changes)) next.delete('page')
    setParams(next, { replace: true })
  }

  const query = {
    q,
    active: active === 'yes' ? true : active === 'no' ? false : undefined,
    limit: PAGE,
    offset: (page - 1) * PAGE,
  }
  const list = useQuery({
    queryKey: qk.users(query),
    queryFn: () => apiPage<User>('/users/', { query }),
    placeholderData: keepPreviousData,
  })

  const toggleActive = useMutation({
    mutationFn: (u: User) =>
      api<User>(`/users/${u.id}`, {
        method: 'PUT',
        body: { email: u.email, fname: u.fname, lname: u.lname, active: !u.active },
      }),
    onSuccess: (u) => notify(`${u.fname} ${u.lname} is now ${u.active ? 'active' : 'inactive'}.`, 'success'),
    onError: (err) => notify((err as Error).message, 'error'),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['users'] }),
  })

  const close = () => setAction(null)
  const done = (msg?: string) => {
    void qc.invalidateQueries({ queryKey: ['users'] })
    if (msg) notify(msg, 'success')
  }

  return (
    <div>
      <PageHeader
        title="Users"
        actions={
          <button type="button" className="button button-primary" onClick={() => setAction({ kind: 'create' })}>
            New user
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
          <label htmlFor="users-q">Search</label>
          <input
            id="users-q"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name or email"
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="users-active">Status</label>
          <select id="users-active" value={active} onChange={(e) => update({ active: e.target.value })}>
            <option value="">All</option>
            <option value="yes">Active</option>
            <option value="no">Inactive</option>
          </select>
        </div>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {list.isLoading && <Loading />}
      <ErrorMessage error={list.error} />
      {list.data && list.data.items.length === 0 && <Empty>No users match.</Empty>}
      {list.data && list.data.items.length > 0 && (
        <>
          <div className="table-scroll table-scroll-cards">
            <table className="table table-cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((u) => (
                  <tr key={u.id} className={u.active ? undefined : 'inactive'}>
                    <td className="cell-title">
                      {u.fname} {u.lname}
                      {u.id === me.id && <span className="muted small"> (you)</span>}
                    </td>
                    <td data-label="Email">
                      <Email address={u.email} />
                    </td>
                    <td data-label="Status">
                      {u.active ? 'Active' : 'Inactive'}
                      {u.force_password_reset && <span className="badge badge-warn">must change password</span>}
                    </td>
                    <td data-label="Created">{formatDate(u.created_at)}</td>
                    <td className="actions-cell">
                      <Menu.Root>
                        <Menu.Trigger className="button button-small" aria-label={`Actions for ${u.fname} ${u.lname}`}>
                          Actions ▾
                        </Menu.Trigger>
                        <Menu.Portal>
                          <Menu.Content className="menu" align="end" sideOffset={4}>
                            <Menu.Item className="menu-item" onSelect={() => setAction({ kind: 'edit', user: u })}>
                              Edit
                            </Menu.Item>
                            <Menu.Item className="menu-item" onSelect={() => setAction({ kind: 'grants', user: u })}>
                              Access
                            </Menu.Item>
                            <Menu.Item className="menu-item" onSelect={() => setAction({ kind: 'reset', user: u })}>
                              Reset password
                            </Menu.Item>
                            {u.id !== me.id && (
                              <Menu.Item className="menu-item" onSelect={() => toggleActive.mutate(u)}>
                                {u.active ? 'Deactivate' : 'Activate'}
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

      <Dialog open={action?.kind === 'create'} onOpenChange={(o) => !o && close()} title="New user">
        {action?.kind === 'create' && <CreateUserForm onDone={() => done()} onClose={close} />}
      </Dialog>
      <Dialog open={action?.kind === 'edit'} onOpenChange={(o) => !o && close()} title="Edit user">
        {action?.kind === 'edit' && (
          <EditUserForm
            user={action.user}
            onDone={() => {
              done('User saved.')
              close()
            }}
            onClose={close}
          />
        )}
      </Dialog>
      <Dialog
        open={action?.kind === 'grants'}
        onOpenChange={(o) => !o && close()}
        title={action?.kind === 'grants' ? `Access for ${action.user.fname} ${action.user.lname}` : 'Access'}
        description="Direct grants. Callings the user holds add their own access."
      >
        {action?.kind === 'grants' && (
          <GrantsForm
            user={action.user}
            onDone={() => {
              done('Access saved.')
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
          action?.kind === 'reset' ? `Reset password for ${action.user.fname} ${action.user.lname}` : 'Reset password'
        }
        description="The user is signed out everywhere and must choose a new password at next sign-in."
      >
        {action?.kind === 'reset' && <ResetPasswordForm user={action.user} onDone={() => done()} onClose={close} />}
      </Dialog>
    </div>
  )
}
