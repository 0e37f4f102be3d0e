import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { useFilterParams } from '../../components/filterParams'
import { useCallings, useCreateCalling } from '../../api/callings'
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
  const { t } = useTranslation('callings')
  const me = useMe()
  const create = useCreateCalling()
  const notify = useNotify()
  const navigate = useNavigate()
  const [params, update] = useFilterParams()
  const q = params.get('q') ?? ''
  const kind = params.get('kind') ?? ''
  const visibility = params.get('public') ?? ''
  const vacant = params.get('vacant') === '1'
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [creating, setCreating] = useState(false)
  const [search, setSearch] = useState(q)

  const query = {
    q,
    system_defined: kind === 'system' ? true : kind === 'user' ? false : undefined,
    is_public: visibility === 'yes' ? true : visibility === 'no' ? false : undefined,
    vacant: vacant ? true : undefined,
    sort: 'name',
    limit: PAGE,
    offset: (page - 1) * PAGE,
  }
  const list = useCallings(query)

  return (
    <div>
      <PageHeader
        title={t('list.title')}
        actions={
          can(me, 'callings.manage') ? (
            <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
              {t('list.new')}
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
          <label htmlFor="callings-q">{t('list.search')}</label>
          <input
            id="callings-q"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('list.searchPlaceholder')}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="callings-kind">{t('kind')}</label>
          <select id="callings-kind" value={kind} onChange={(e) => update({ kind: e.target.value })}>
            <option value="">{t('list.all')}</option>
            <option value="system">{t('system')}</option>
            <option value="user">{t('userMade')}</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="callings-public">{t('list.visibility')}</label>
          <select id="callings-public" value={visibility} onChange={(e) => update({ public: e.target.value })}>
            <option value="">{t('list.all')}</option>
            <option value="yes">{t('public')}</option>
            <option value="no">{t('list.private')}</option>
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={vacant} onChange={(e) => update({ vacant: e.target.checked ? '1' : '' })} />{' '}
          {t('list.vacant')}
        </label>
        <button type="submit" className="button">
          {t('list.search')}
        </button>
      </form>
      {list.isLoading && <Loading />}
      <ErrorMessage error={list.error} />
      {list.data && list.data.items.length === 0 && <Empty>{t('list.noMatch')}</Empty>}
      {list.data && list.data.items.length > 0 && (
        <>
          <div className="table-scroll table-scroll-cards">
            <table className="table table-cards">
              <thead>
                <tr>
                  <th scope="col">{t('form.name')}</th>
                  <th scope="col">{t('kind')}</th>
                  <th scope="col">{t('public')}</th>
                  <th scope="col">{t('list.seatsFilled')}</th>
                  <th scope="col">{t('list.holders')}</th>
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
                      <td data-label={t('kind')}>
                        {c.system_defined ? <span className="badge">{t('system')}</span> : t('userMade')}
                      </td>
                      <td data-label={t('public')}>{c.is_public ? t('common:yes') : t('common:no')}</td>
                      <td data-label={t('list.seatsFilled')}>
                        {filled.length} / {c.max_slots}
                      </td>
                      <td className="holders" data-label={t('list.holders')}>
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
      <Dialog open={creating} onOpenChange={setCreating} title={t('list.new')}>
        <CallingForm
          submitLabel={t('list.create')}
          onCancel={() => setCreating(false)}
          onSubmit={async (v) => {
            const created = await create.mutateAsync(v)
            setCreating(false)
            notify(t('list.created', { name: created.name }), 'success')
            navigate(ROUTES.calling(created.id))
          }}
        />
      </Dialog>
    </div>
  )
}
