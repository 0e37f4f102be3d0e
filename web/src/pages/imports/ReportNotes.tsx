import { useTranslation } from 'react-i18next'
import type { ImportIgnoredLine, ImportPreview, ImportProblem } from '../../api/types'
import { useWards, wardName } from '../../api/wards'
import { ChangeTable } from './ChangeTable'
import { problemSentence } from './problemText'

/** The callings the report lists as vacant: shown as vacant, never as a person. */
export function VacantCallings({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('imports')
  const wards = useWards()
  return (
    <ChangeTable
      title={t('vacant.title')}
      intro={t('vacant.intro')}
      testId="import-vacant"
      rows={preview.vacant}
      columns={[
        { label: t('table.calling'), cell: (v) => v.calling },
        {
          label: t('vacant.holder'),
          cell: () => <span className="badge badge-warn">{t('vacant.nobody')}</span>,
        },
        { label: t('vacant.organization'), cell: (v) => v.organization ?? '—' },
        {
          label: t('vacant.unit'),
          cell: (v) => (v.ward_id ? wardName(wards.data, v.ward_id) : t('form.stakeWide')),
        },
        { label: t('table.row'), cell: (v) => v.row },
      ]}
    />
  )
}

const REASONS = new Set([
  'page_text',
  'title',
  'unit',
  'heading',
  'printed',
  'page_number',
  'copyright',
  'count',
  'room',
  'add_another',
  'legend',
  'repeated_header',
])

/** The report's lines that are not table rows, folded away: a clerk opens them to check nothing was lost. */
export function IgnoredLines({ lines }: { lines: ImportIgnoredLine[] }) {
  const { t } = useTranslation('imports')
  if (lines.length === 0) return null
  return (
    <details className="import-lines" data-testid="import-ignored-lines">
      <summary>{t('lines.summary', { count: lines.length })}</summary>
      <p className="muted">{t('lines.intro')}</p>
      <ol>
        {lines.map((l) => (
          <li key={l.line}>
            <span className="muted small">{t('lines.line', { line: l.line })}</span>{' '}
            <span className="import-line-text">{l.text}</span>{' '}
            <span className="muted small">
              ({t(`lines.reasons.${REASONS.has(l.reason) ? l.reason : 'page_text'}`)})
            </span>
          </li>
        ))}
      </ol>
    </details>
  )
}

/** The problems in plain words, each with its report row. */
export function ProblemList({ problems }: { problems: ImportProblem[] }) {
  const { t } = useTranslation('imports')
  if (problems.length === 0) return null
  return (
    <section className="stack import-section" aria-label={t('tables.problems')}>
      <h3>
        {t('tables.problems')} <span className="muted small">({problems.length})</span>
      </h3>
      <ul className="import-problems" data-testid="import-problems">
        {problems.map((p, i) => {
          const { key, value } = problemSentence(p)
          return (
            <li key={i}>
              {p.row !== null && <strong>{t('rowLabel', { row: p.row })} </strong>}
              {t(key, { value })}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
