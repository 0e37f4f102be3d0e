import { useTranslation } from 'react-i18next'
import type { ImportPreview, ImportSummary } from '../../api/types'
import { besidesRows, rowCounts } from './rowSummary'

/** What becomes of the report's rows: one line per kind, the counts adding up to the rows. */
export function RowSummary({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('imports')
  const besides = besidesRows(preview)
  const extra = [
    besides.newPeople > 0 &&
      t('besides.newPeople', { count: besides.newPeople }) +
        (besides.rosterOnly > 0 ? ` ${t('besides.rosterOnly', { count: besides.rosterOnly })}` : ''),
    besides.updated > 0 && t('besides.updated', { count: besides.updated }),
    besides.newCallings > 0 && t('besides.newCallings', { count: besides.newCallings }),
    besides.released > 0 && t('besides.released', { count: besides.released }),
  ].filter((line): line is string => typeof line === 'string')
  return (
    <div className="stack import-summary-box">
      <p className="import-summary-title">
        <strong>{t('rows.title', { count: preview.rows_total })}</strong>
      </p>
      <ul className="import-summary" data-testid="import-summary">
        {rowCounts(preview).map(({ kind, count }) => (
          <li key={kind} data-kind={kind}>
            {t(`rows.${kind}`, { count })}
          </li>
        ))}
      </ul>
      {extra.length > 0 && (
        <>
          <p className="import-summary-title">{t('besides.title')}</p>
          <ul className="import-summary" data-testid="import-besides">
            {extra.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}

/** What an applied import did. */
export function AppliedSummary({ summary }: { summary: ImportSummary }) {
  const { t } = useTranslation('imports')
  return (
    <ul className="import-summary" data-testid="import-summary">
      <li>{t('summary.usersCreate', { count: summary.users.create })}</li>
      <li>{t('summary.usersUpdate', { count: summary.users.update })}</li>
      <li>{t('summary.callingsCreate', { count: summary.callings.create })}</li>
      <li>{t('summary.slotsFill', { count: summary.slots.fill })}</li>
      <li>{t('summary.slotsRelease', { count: summary.slots.release })}</li>
      {summary.users.unchanged > 0 && <li>{t('summary.usersUnchanged', { count: summary.users.unchanged })}</li>}
      {summary.slots.unchanged > 0 && <li>{t('summary.slotsUnchanged', { count: summary.slots.unchanged })}</li>}
      {summary.skipped > 0 && <li>{t('summary.skipped', { count: summary.skipped })}</li>}
    </ul>
  )
}
