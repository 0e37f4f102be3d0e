import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { reportType, type ReportUpload } from '../../api/imports'
import { useWards } from '../../api/wards'
import { ErrorMessage, Field } from '../../components/ui'

type Source = 'file' | 'paste'

/** Step 1: whose callings, the report (a file or a pasted table), and whether missing holders are released. */
export function ChooseReport({
  pending,
  error,
  onPreview,
}: {
  pending: boolean
  error: unknown
  onPreview: (upload: ReportUpload) => void
}) {
  const { t } = useTranslation('imports')
  const wards = useWards()
  const [wardId, setWardId] = useState<number | null>(null)
  const [source, setSource] = useState<Source>('file')
  const [file, setFile] = useState<File | null>(null)
  const [text, setText] = useState('')
  const [releaseMissing, setReleaseMissing] = useState(false)
  const [missing, setMissing] = useState<string | null>(null)

  const start = () => {
    setMissing(null)
    if (source === 'file' && !file) return setMissing(t('form.chooseFile'))
    if (source === 'paste' && !text.trim()) return setMissing(t('form.pasteTable'))
    onPreview({
      body: source === 'file' ? file! : text,
      type: source === 'file' ? reportType(file!) : 'text/plain',
      wardId,
      releaseMissing,
    })
  }

  return (
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
      <ErrorMessage error={error} />
      <div>
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? t('form.reading') : t('form.preview')}
        </button>
      </div>
    </form>
  )
}
