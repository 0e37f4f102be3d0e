import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApplyImport } from '../../api/imports'
import type { ImportPreview, ImportSummary } from '../../api/types'
import { useWards, wardName } from '../../api/wards'
import { ConfirmDialog } from '../../components/Dialog'
import { ErrorMessage } from '../../components/ui'
import { ChangeTables } from './ChangeTables'
import { PossibleMatches } from './PossibleMatches'
import { IgnoredLines, ProblemList, VacantCallings } from './ReportNotes'
import { RowSummary } from './Summaries'

/**
 * Step 2: what the report would change — its rows summed up, the possible
 * matches to answer, the vacant callings, the changes, the problems and the
 * page text read past (folded away) — and the Apply button, which says what
 * is still to answer.
 */
export function ReviewImport({
  preview,
  onApplied,
}: {
  preview: ImportPreview
  onApplied: (s: ImportSummary) => void
}) {
  const { t } = useTranslation('imports')
  const wards = useWards()
  const applying = useApplyImport()
  const [confirming, setConfirming] = useState(false)
  const pending = preview.changes.filter((c) => c.action === 'confirm').length
  const hasChanges = preview.changes.some((c) => c.action !== 'unchanged')
  return (
    <section className="stack" aria-labelledby="import-preview-title" data-testid="import-preview">
      <h2 id="import-preview-title">
        {t('previewTitle', {
          kind: t(`kinds.${preview.kind}`),
          ward: preview.ward_id ? wardName(wards.data, preview.ward_id) : t('form.stakeWide'),
        })}
      </h2>
      <RowSummary preview={preview} />
      {preview.ignored_columns.length > 0 && (
        <p className="muted" data-testid="ignored-columns">
          {t('ignored', { columns: preview.ignored_columns.join(', ') })}
        </p>
      )}
      <PossibleMatches preview={preview} />
      <VacantCallings preview={preview} />
      <ChangeTables preview={preview} />
      <ProblemList problems={preview.problems} />
      <IgnoredLines lines={preview.ignored_lines} />
      {hasChanges ? (
        <div className="stack import-apply">
          {pending > 0 && (
            <p id="import-apply-pending" className="notice-warning" data-testid="import-apply-pending">
              {t('applyPending', { count: pending })}
            </p>
          )}
          <div>
            <button
              type="button"
              className="button button-primary"
              disabled={pending > 0}
              aria-describedby={pending > 0 ? 'import-apply-pending' : undefined}
              onClick={() => setConfirming(true)}
            >
              {t('apply')}
            </button>
          </div>
        </div>
      ) : (
        <p>{t('nothingToDo')}</p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('confirmTitle')}
        message={t('confirmText', {
          fill: preview.summary.slots.fill,
          release: preview.summary.slots.release,
          create: preview.summary.users.create,
        })}
        confirmLabel={t('apply')}
        busy={applying.isPending}
        error={<ErrorMessage error={applying.error} />}
        onConfirm={() =>
          applying.mutate(preview.id, {
            onSuccess: (result) => {
              setConfirming(false)
              onApplied(result.summary)
            },
          })
        }
      />
    </section>
  )
}
