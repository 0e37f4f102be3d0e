import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { useFilterParams } from '../../components/filterParams'
import { useCallings, useCreateCalling } from '../../api/callings'
import type { Calling } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { Dialog } from '../../components/Dialog'
import { CardTable, FilterSelect, PagedListStates, SearchFilters } from '../../components/lists'
import { useNotify } from '../../components/Notice'
import { PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { CallingForm } from './CallingForm'

const PAGE = 25

export default function CallingsPage() {
  const { t } = useTranslation('callings')
  const me = useMe()
  const [params, update] = useFilterParams()
  const q = params.get('q') ?? ''
  const kind = params.get('kind') ?? ''
  const visibility = params.get('public') ?? ''
  const vacant = params.get('vacant') === '1'
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [creating, setCreating] = useState(false)

  const list = useCallings({
    q,
    system_defined: kind === 'system' ? true : kind === 'user' ? false : undefined,
    is_public: visibility === 'yes' ? true : visibility === 'no' ? false : undefined,
    vacant: vacant ? true : undefined,
    sort: 'name',
    limit: PAGE,
    offset: (page - 1) * PAGE,
  })

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
      <SearchFilters
        id="callings-q"
        query={q}
        label={t('list.search')}
        placeholder={t('list.searchPlaceholder')}
        submitLabel={t('list.search')}
        onSearch={(text) => update({ q: text })}
      >
        <FilterSelect
          id="callings-kind"
          label={t('kind')}
          value={kind}
          onChange={(v) => update({ kind: v })}
          options={[
            ['', t('list.all')],
            ['system', t('system')],
            ['user', t('userMade')],
          ]}
        />
        <FilterSelect
          id="callings-public"
          label={t('list.visibility')}
          value={visibility}
          onChange={(v) => update({ public: v })}
          options={[
            ['', t('list.all')],
            ['yes', t('public')],
            ['no', t('list.private')],
          ]}
        />
        <label className="checkbox">
          <input type="checkbox" checked={vacant} onChange={(e) => update({ vacant: e.target.checked ? '1' : '' })} />{' '}
          {t('list.vacant')}
        </label>
      </SearchFilters>
      <PagedListStates
        query={list}
        empty={t('list.noMatch')}
        page={page}
        pageSize={PAGE}
        onPage={(p) => update({ page: String(p) })}
      >
        {(items) => (
          <CardTable columns={[t('form.name'), t('kind'), t('public'), t('list.seatsFilled'), t('list.holders')]}>
            {items.map((c) => (
              <CallingRow key={c.id} calling={c} />
            ))}
          </CardTable>
        )}
      </PagedListStates>
      <Dialog open={creating} onOpenChange={setCreating} title={t('list.new')}>
        <CreateCallingForm onClose={() => setCreating(false)} />
      </Dialog>
    </div>
  )
}

function CallingRow({ calling: c }: { calling: Calling }) {
  const { t } = useTranslation('callings')
  const filled = c.slots.filter((s) => s.filled)
  return (
    <tr>
      <td className="cell-title">
        <Link to={ROUTES.calling(c.id)}>{c.name}</Link>
      </td>
      <td data-label={t('kind')}>{c.system_defined ? <span className="badge">{t('system')}</span> : t('userMade')}</td>
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
}

/** Creates a calling and opens it. */
function CreateCallingForm({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('callings')
  const create = useCreateCalling()
  const notify = useNotify()
  const navigate = useNavigate()
  return (
    <CallingForm
      submitLabel={t('list.create')}
      onCancel={onClose}
      onSubmit={async (v) => {
        const created = await create.mutateAsync(v)
        onClose()
        notify(t('list.created', { name: created.name }), 'success')
        navigate(ROUTES.calling(created.id))
      }}
    />
  )
}
