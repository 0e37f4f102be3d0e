import { formatDateTime } from '../../i18n/format'
import { useFilterParams } from '../../components/filterParams'
import { useTranslation } from 'react-i18next'
import { AUDIT_ACTIONS, AUDIT_GROUPS, useAuditLog, useAuditPeople, type AuditEntry } from '../../api/audit'
import { useWards, wardName } from '../../api/wards'
import { UserPicker } from '../../components/UserPicker'
import { FilterField, PagedListStates } from '../../components/lists'
import { PageHeader } from '../../components/ui'
import { describeEntry, type Names } from './describe'

const PAGE = 25
const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The audit log (docs/api-reference.md §13), for users.manage: who changed what, and when, in plain words. */
export default function AuditPage() {
  const { t, i18n } = useTranslation('audit')
  const [params, update, clear] = useFilterParams()
  const who = Number(params.get('who')) || null
  const what = params.get('what') ?? ''
  const from = DAY.test(params.get('from') ?? '') ? params.get('from')! : ''
  const to = DAY.test(params.get('to') ?? '') ? params.get('to')! : ''
  const page = Math.max(1, Number(params.get('page')) || 1)

  const log = useAuditLog({
    actor_id: who ?? undefined,
    action: what || undefined,
    from: from || undefined,
    to: to || undefined,
    limit: PAGE,
    offset: (page - 1) * PAGE,
  })
  const people = useAuditPeople()
  const wards = useWards()
  const names: Names = {
    person: (id) => (id == null ? t('someone') : (people.data?.get(id) ?? t('userNumber', { id }))),
    ward: (id) => wardName(wards.data, id),
    language: i18n.language,
  }
  const filtered = Boolean(who || what || from || to)

  return (
    <div>
      <PageHeader title={t('title')} />
      <p className="muted">{t('intro')}</p>
      <form className="filters" role="search" aria-label={t('filters.label')} onSubmit={(e) => e.preventDefault()}>
        <div className="field-inline">
          <UserPicker
            id="audit-who"
            label={t('filters.who')}
            value={who}
            allowClear
            onChange={(id) => update({ who: id ? String(id) : '' })}
          />
        </div>
        <FilterField id="audit-what" label={t('filters.what')}>
          <ActionSelect id="audit-what" value={what} onChange={(v) => update({ what: v })} />
        </FilterField>
        <FilterField id="audit-from" label={t('filters.from')}>
          <input
            id="audit-from"
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => update({ from: e.target.value })}
          />
        </FilterField>
        <FilterField id="audit-to" label={t('filters.to')}>
          <input
            id="audit-to"
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => update({ to: e.target.value })}
          />
        </FilterField>
        {filtered && (
          <button type="button" className="button" onClick={clear}>
            {t('filters.clear')}
          </button>
        )}
      </form>
      <PagedListStates
        query={log}
        empty={t('empty')}
        page={page}
        pageSize={PAGE}
        onPage={(p) => update({ page: String(p) })}
      >
        {(items) => (
          <ol className="audit-list" aria-label={t('title')}>
            {items.map((entry) => (
              <AuditItem
                key={entry.id}
                entry={entry}
                sentence={describeEntry(entry, t, names)}
                at={formatDateTime(entry.at)}
                detailLabel={t('rawDetail')}
              />
            ))}
          </ol>
        )}
      </PagedListStates>
    </div>
  )
}

function AuditItem({
  entry,
  sentence,
  at,
  detailLabel,
}: {
  entry: AuditEntry
  sentence: string
  at: string
  detailLabel: string
}) {
  return (
    <li className="audit-entry" data-action={entry.action}>
      <time dateTime={entry.at} className="muted small">
        {at}
      </time>
      <p className="audit-sentence">{sentence}</p>
      <details className="audit-raw">
        <summary className="small">{detailLabel}</summary>
        <pre>
          {JSON.stringify(
            { action: entry.action, target: entry.target_type, id: entry.target_id, ...entry.detail },
            null,
            2,
          )}
        </pre>
      </details>
    </li>
  )
}

/** The kinds of change, grouped by domain; a group's first choice is every change of it. */
function ActionSelect({ id, value, onChange }: { id: string; value: string; onChange(value: string): void }) {
  const { t } = useTranslation('audit')
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t('filters.everything')}</option>
      {AUDIT_GROUPS.map((group) => (
        <optgroup key={group} label={t(`groups.${group}`)}>
          <option value={`${group}.`}>{t('filters.allOfGroup', { group: t(`groups.${group}`) })}</option>
          {AUDIT_ACTIONS.filter((a) => a.startsWith(`${group}.`)).map((action) => (
            <option key={action} value={action}>
              {t(`actionNames.${action}`)}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  )
}
