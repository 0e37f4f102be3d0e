import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { reportType, useApplyImport, usePreviewImport } from '../../api/imports'
import type { ImportChange, ImportPreview, ImportSummary } from '../../api/types'
import { useWards, wardName } from '../../api/wards'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { ConfirmDialog } from '../../components/Dialog'
import { Empty, ErrorMessage, Field, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'

type Source = 'file' | 'paste'

const person = (c: ImportChange) => `${c.fname ?? ''} ${c.lname ?? ''}`.trim()

/** A titled table of some of the preview's changes; nothing when there are none. */
function ChangeTable({
  title,
  rows,
  columns,
}: {
  title: string
  rows: ImportChange[]
  columns: { label: string; cell: (c: ImportChange) => ReactNode }[]
}) {
  if (rows.length === 0) return null
  return (
    <section className="stack" aria-label={title}>
      <h2>
        {title} <span className="muted small">({rows.length})</span>
      </h2>
      <div className="table-scroll table-scroll-cards">
        <table className="table table-cards compact">
          <thead>
            <tr>
              {columns.map((col) => (
                <th key={col.label} scope="col">
                  {col.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((c, i) => (
              <tr key={`${c.row}-${c.target}-${i}`}>
                {columns.map((col, j) => (
                  <td key={col.label} className={j === 0 ? 'cell-title' : undefined} data-label={col.label}>
                    {col.cell(c)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

function SummaryList({ summary }: { summary: ImportSummary }) {
  const { t } = useTranslation('imports')
  return (
    <ul className="import-summary" data-testid="import-summary">
      <li>{t('summary.usersCreate', { count: summary.users.create })}</li>
      <li>{t('summary.usersUpdate', { count: summary.users.update })}</li>
      <li>{t('summary.callingsCreate', { count: summary.callings.create })}</li>
      <li>{t('summary.slotsFill', { count: summary.slots.fill })}</li>
      <li>{t('summary.slotsRelease', { count: summary.slots.release })}</li>
      <li>{t('summary.unchanged', { count: summary.users.unchanged + summary.slots.unchanged })}</li>
      {summary.skipped > 0 && <li>{t('summary.skipped', { count: summary.skipped })}</li>}
    </ul>
  )
}

function PreviewView({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('imports')
  const wards = useWards()
  const of = (target: ImportChange['target'], action: ImportChange['action']) =>
    preview.changes.filter((c) => c.target === target && c.action === action)
  const seat = (c: ImportChange) => (c.ward_id ? `${c.calling} — ${wardName(wards.data, c.ward_id)}` : c.calling)
  const rowCol = { label: t('table.row'), cell: (c: ImportChange) => c.row ?? '—' }
  return (
    <div className="stack">
      <SummaryList summary={preview.summary} />
      {preview.ignored_columns.length > 0 && (
        <p className="muted" data-testid="ignored-columns">
          {t('ignored', { columns: preview.ignored_columns.join(', ') })}
        </p>
      )}
      <ChangeTable
        title={t('tables.newPeople')}
        rows={of('user', 'create')}
        columns={[
          { label: t('table.name'), cell: person },
          { label: t('table.email'), cell: (c) => c.email ?? <span className="muted">{t('rosterOnly')}</span> },
          { label: t('table.phone'), cell: (c) => c.phone ?? '—' },
          rowCol,
        ]}
      />
      <ChangeTable
        title={t('tables.updatedPeople')}
        rows={of('user', 'update')}
        columns={[
          { label: t('table.name'), cell: person },
          {
            label: t('table.changes'),
            cell: (c) =>
              Object.entries(c.changes ?? {})
                .map(([field, v]) =>
                  t('changeLine', { field: t(`fields.${field}`), from: v.from ?? '—', to: v.to ?? '—' }),
                )
                .join('; '),
          },
          rowCol,
        ]}
      />
      <ChangeTable
        title={t('tables.newCallings')}
        rows={of('calling', 'create')}
        columns={[{ label: t('table.calling'), cell: (c) => c.calling }, rowCol]}
      />
      <ChangeTable
        title={t('tables.fill')}
        rows={of('slot', 'fill')}
        columns={[
          { label: t('table.calling'), cell: seat },
          { label: t('table.person'), cell: person },
          {
            label: t('table.replaces'),
            cell: (c) => (c.released_user_id ? `${c.released_fname} ${c.released_lname}` : '—'),
          },
          { label: t('table.sustained'), cell: (c) => c.sustained ?? '—' },
          rowCol,
        ]}
      />
      <ChangeTable
        title={t('tables.release')}
        rows={of('slot', 'release')}
        columns={[
          { label: t('table.calling'), cell: seat },
          { label: t('table.person'), cell: person },
        ]}
      />
      {preview.problems.length > 0 && (
        <section className="stack" aria-label={t('tables.problems')}>
          <h2>
            {t('tables.problems')} <span className="muted small">({preview.problems.length})</span>
          </h2>
          <ul className="import-problems" data-testid="import-problems">
            {preview.problems.map((p, i) => (
              <li key={i}>
                {p.row !== null && <strong>{t('rowLabel', { row: p.row })} </strong>}
                {p.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}

/**
 * "Import from LCR" (docs/api-reference.md §15): choose the ward and the report,
 * upload a file or paste the table, see what would change, then apply.
 */
export default function ImportPage() {
  const { t } = useTranslation('imports')
  const me = useMe()
  const wards = useWards()
  const [wardId, setWardId] = useState<number | null>(null)
  const [source, setSource] = useState<Source>('file')
  const [file, setFile] = useState<File | null>(null)
  const [text, setText] = useState('')
  const [releaseMissing, setReleaseMissing] = useState(false)
  const [missing, setMissing] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [applied, setApplied] = useState<ImportSummary | null>(null)
  const previewing = usePreviewImport()
  const applying = useApplyImport()
  const preview = previewing.data ?? null
  const allowed = can(me, 'users.manage') && can(me, 'callings.manage')

  if (!allowed) {
    return (
      <div>
        <PageHeader title={t('title')} />
        <Empty>{t('notAllowed')}</Empty>
      </div>
    )
  }

  const start = () => {
    setMissing(null)
    setApplied(null)
    applying.reset()
    if (source === 'file' && !file) return setMissing(t('form.chooseFile'))
    if (source === 'paste' && !text.trim()) return setMissing(t('form.pasteTable'))
    previewing.mutate({
      body: source === 'file' ? file! : text,
      type: source === 'file' ? reportType(file!) : 'text/plain',
      wardId,
      releaseMissing,
    })
  }

  const hasChanges = preview !== null && preview.changes.some((c) => c.action !== 'unchanged')

  return (
    <div className="stack">
      <PageHeader title={t('title')} />
      <p className="muted">{t('intro')}</p>
      <form
        noValidate
        className="stack card"
        onSubmit={(e) => {
          e.preventDefault()
          start()
        }}
      >
        <h2>{t('form.step1')}</h2>
        <Field label={t('form.ward')} hint={t('form.wardHint')}>
          <select value={wardId ?? ''} onChange={(e) => setWardId(e.target.value ? Number(e.target.value) : null)}>
            <option value="">{t('form.stakeWide')}</option>
            {wards.data?.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="field">
          <legend>{t('form.source')}</legend>
          <label className="checkbox">
            <input type="radio" name="source" checked={source === 'file'} onChange={() => setSource('file')} />{' '}
            {t('form.sourceFile')}
          </label>
          <label className="checkbox">
            <input type="radio" name="source" checked={source === 'paste'} onChange={() => setSource('paste')} />{' '}
            {t('form.sourcePaste')}
          </label>
        </fieldset>
        {source === 'file' ? (
          <Field label={t('form.file')} hint={t('form.fileHint')} error={missing ?? undefined}>
            <input
              type="file"
              accept=".pdf,.csv,.tsv,.txt,application/pdf,text/csv,text/plain"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Field>
        ) : (
          <Field label={t('form.paste')} hint={t('form.pasteHint')} error={missing ?? undefined}>
            <textarea rows={8} value={text} onChange={(e) => setText(e.target.value)} />
          </Field>
        )}
        <label className="checkbox">
          <input type="checkbox" checked={releaseMissing} onChange={(e) => setReleaseMissing(e.target.checked)} />{' '}
          {t('form.releaseMissing')}
        </label>
        <ErrorMessage error={previewing.error} />
        <div>
          <button type="submit" className="button button-primary" disabled={previewing.isPending}>
            {previewing.isPending ? t('form.reading') : t('form.preview')}
          </button>
        </div>
      </form>

      {preview && !applied && (
        <section className="stack" aria-labelledby="import-preview-title" data-testid="import-preview">
          <h2 id="import-preview-title">
            {t('previewTitle', {
              kind: t(`kinds.${preview.kind}`),
              ward: preview.ward_id ? wardName(wards.data, preview.ward_id) : t('form.stakeWide'),
            })}
          </h2>
          <PreviewView preview={preview} />
          {hasChanges ? (
            <div>
              <button type="button" className="button button-primary" onClick={() => setConfirming(true)}>
                {t('apply')}
              </button>
            </div>
          ) : (
            <p>{t('nothingToDo')}</p>
          )}
        </section>
      )}

      {applied && (
        <section className="stack card" role="status" data-testid="import-done">
          <h2>{t('done')}</h2>
          <SummaryList summary={applied} />
          <p>
            <Link to={ROUTES.callings}>{t('seeCallings')}</Link> · <Link to={ROUTES.users}>{t('seeUsers')}</Link>
          </p>
        </section>
      )}

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('confirmTitle')}
        message={
          preview
            ? t('confirmText', {
                fill: preview.summary.slots.fill,
                release: preview.summary.slots.release,
                create: preview.summary.users.create,
              })
            : ''
        }
        confirmLabel={t('apply')}
        busy={applying.isPending}
        error={<ErrorMessage error={applying.error} />}
        onConfirm={() =>
          preview &&
          applying.mutate(preview.id, {
            onSuccess: (result) => {
              setConfirming(false)
              setApplied(result.summary)
            },
          })
        }
      />
    </div>
  )
}
