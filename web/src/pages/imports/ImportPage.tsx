import { useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useImport, usePreviewImport } from '../../api/imports'
import type { ImportSummary } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { Empty, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { ChooseReport } from './ChooseReport'
import { ReviewImport } from './ReviewImport'
import { AppliedSummary } from './Summaries'
import './imports.css'

/**
 * "Import from LCR" (docs/api-reference.md §15): choose the ward and the report,
 * upload a file or paste the table, see what would change and answer the
 * possible matches, then apply.
 */
export default function ImportPage() {
  const { t } = useTranslation('imports')
  const me = useMe()
  const [previewId, setPreviewId] = useState<number | null>(null)
  const [applied, setApplied] = useState<ImportSummary | null>(null)
  const previewing = usePreviewImport()
  const shown = useImport(previewId)
  const preview = previewId !== null && shown.data?.id === previewId ? shown.data : null

  if (!can(me, 'users.manage') || !can(me, 'callings.manage')) {
    return (
      <div>
        <PageHeader title={t('title')} />
        <Empty>{t('notAllowed')}</Empty>
      </div>
    )
  }

  return (
    <div className="stack">
      <PageHeader title={t('title')} />
      <p className="muted">{t('intro')}</p>
      <ChooseReport
        pending={previewing.isPending}
        error={previewing.error}
        onPreview={(upload) => {
          setApplied(null)
          setPreviewId(null)
          previewing.mutate(upload, { onSuccess: (p) => setPreviewId(p.id) })
        }}
      />
      {preview && !applied && <ReviewImport preview={preview} onApplied={setApplied} />}
      {applied && (
        <section className="stack card" role="status" data-testid="import-done">
          <h2>{t('done')}</h2>
          <AppliedSummary summary={applied} />
          <p>
            <Link to={ROUTES.callings}>{t('seeCallings')}</Link> · <Link to={ROUTES.users}>{t('seeUsers')}</Link>
          </p>
        </section>
      )}
    </div>
  )
}
