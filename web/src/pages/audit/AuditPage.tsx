import { useFilterParams } from '../../components/filterParams'
import { useTranslation } from 'react-i18next'
import { AUDIT_ACTIONS, AUDIT_GROUPS, useAuditLog, useAuditPeople, type AuditEntry } from '../../api/audit'
import { useWards, wardName } from '../../api/wards'
import { Pagination } from '../../components/Pagination'
import { UserPicker } from '../../components/UserPicker'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
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
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
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
        <div className="field field-inline">
          <label htmlFor="audit-what">{t('filters.what')}</label>
          <select id="audit-what" value={what} onChange={(e) => update({ what: e.target.value })}>
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
        </div>
        <div className="field field-inline">
          <label htmlFor="audit-from">{t('filters.from')}</label>
          <input
            id="audit-from"
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => update({ from: e.target.value })}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="audit-to">{t('filters.to')}</label>
          <input
            id="audit-to"
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => update({ to: e.target.value })}
          />
        </div>
        {filtered && (
          <button type="button" className="button" onClick={clear}>
            {t('filters.clear')}
          </button>
        )}
      </form>
      {log.isLoading && <Loading />}
      <ErrorMessage error={log.error} />
      {log.data && log.data.items.length === 0 && <Empty>{t('empty')}</Empty>}
      {log.data && log.data.items.length > 0 && (
        <>
          <ol className="audit-list" aria-label={t('title')}>
            {log.data.items.map((entry) => (
              <AuditItem
                key={entry.id}
                entry={entry}
                sentence={describeEntry(entry, t, names)}
                at={when.format(new Date(entry.at))}
                detailLabel={t('rawDetail')}
              />
            ))}
          </ol>
          <Pagination page={page} pageSize={PAGE} total={log.data.total} onPage={(p) => update({ page: String(p) })} />
        </>
      )}
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
