import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, apiPage } from '../../api/client'
import { qk } from '../../api/queries'
import type { Calling } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { CallingForm } from './CallingForm'
import { Pagination } from '../../components/Pagination'

const PAGE = 25

export default function CallingsPage() {
  const me = useMe()
  const qc = useQueryClient()
  const notify = useNotify()
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const kind = params.get('kind') ?? ''
  const visibility = params.get('public') ?? ''
  const vacant = params.get('vacant') === '1'
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [creating, setCreating] = useState(false)
  const [search, setSearch] = useState(q)

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
    system_defined: kind === 'system' ? true : kind === 'user' ? false : undefined,
    is_public: visibility === 'yes' ? true : visibility === 'no' ? false : undefined,
    vacant: vacant ? true : undefined,
    sort: 'name',
    limit: PAGE,
    offset: (page - 1) * PAGE,
  }
  const list = useQuery({
    queryKey: qk.callings(query),
    queryFn: () => apiPage<Calling>('/callings/', { query }),
    placeholderData: keepPreviousData,
  })

  return (
    <div>
      <PageHeader
        title="Callings"
        actions={
          can(me, 'callings.manage') ? (
            <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
              New calling
            </button>
          ) : undefined
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
          <label htmlFor="callings-q">Search</label>
          <input
            id="callings-q"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Calling name"
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="callings-kind">Kind</label>
          <select id="callings-kind" value={kind} onChange={(e) => update({ kind: e.target.value })}>
            <option value="">All</option>
            <option value="system">System</option>
            <option value="user">User-made</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="callings-public">Visibility</label>
          <select id="callings-public" value={visibility} onChange={(e) => update({ public: e.target.value })}>
            <option value="">All</option>
            <option value="yes">Public</option>
            <option value="no">Private</option>
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={vacant} onChange={(e) => update({ vacant: e.target.checked ? '1' : '' })} />{' '}
          Has a vacant seat
        </label>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {list.isLoading && <Loading />}
      <ErrorMessage error={list.error} />
      {list.data && list.data.items.length === 0 && <Empty>No callings match.</Empty>}
      {list.data && list.data.items.length > 0 && (
        <>
          <div className="table-scroll table-scroll-cards">
            <table className="table table-cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Public</th>
                  <th scope="col">Seats filled</th>
                  <th scope="col">Holders</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((c) => {
                  const filled = c.slots.filter((s) => s.filled)
                  return (
                    <tr key={c.id}>
                      <td className="cell-title">
                        <Link to={ROUTES.calling(c.id)}>{c.name}</Link>
                      </td>
                      <td data-label="Kind">
                        {c.system_defined ? <span className="badge">System</span> : 'User-made'}
                      </td>
                      <td data-label="Public">{c.is_public ? 'Yes' : 'No'}</td>
                      <td data-label="Seats filled">
                        {filled.length} / {c.max_slots}
                      </td>
                      <td className="holders" data-label="Holders">
                        {filled
                          .slice(0, 3)
                          .map((s) => (s.user ? `${s.user.fname} ${s.user.lname}` : `#${s.user_id}`))
                          .join(', ')}
                        {filled.length > 3 && ` +${filled.length - 3}`}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pageSize={PAGE} total={list.data.total} onPage={(p) => update({ page: String(p) })} />
        </>
      )}
      <Dialog open={creating} onOpenChange={setCreating} title="New calling">
        <CallingForm
          submitLabel="Create calling"
          onCancel={() => setCreating(false)}
          onSubmit={async (v) => {
            const created = await api<Calling>('/callings/', { method: 'POST', body: v })
            setCreating(false)
            void qc.invalidateQueries({ queryKey: ['callings'] })
            notify(`Calling "${created.name}" created.`, 'success')
            navigate(ROUTES.calling(created.id))
          }}
        />
      </Dialog>
    </div>
  )
}
