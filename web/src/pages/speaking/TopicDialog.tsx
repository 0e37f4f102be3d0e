import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDeleteTopic, useSaveTopic } from '../../api/speaking'
import type { Topic } from '../../api/types'
import { Dialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Field, splitError } from '../../components/ui'

/** The topic of one month: set, change or remove it. */
export function TopicDialog({
  year,
  month,
  monthName,
  topic,
  onClose,
}: {
  year: number
  month: number
  monthName: string
  topic?: Topic
  onClose(): void
}) {
  const { t } = useTranslation('speaking')
  const notify = useNotify()
  const [text, setText] = useState(topic?.topic ?? '')
  const [reference, setReference] = useState(topic?.reference ?? '')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSaveTopic(year, month, {
    onSuccess: () => {
      notify(t('notice.topicSaved'), 'success')
      onClose()
    },
    onError: (err) => setErrors(splitError(err, ['topic', 'reference']).fields),
  })
  const del = useDeleteTopic(year, month, {
    onSuccess: () => {
      notify(t('notice.topicRemoved'), 'success')
      onClose()
    },
  })
  const general = splitError(save.error, ['topic', 'reference']).general
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('topic.title', { month: monthName, year })}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          const errs: Record<string, string> = {}
          if (!text.trim()) errs.topic = t('topic.required')
          else if (text.trim().length > 200) errs.topic = t('topic.tooLong')
          if (reference.length > 2000) errs.reference = t('topic.referenceTooLong')
          setErrors(errs)
          if (Object.keys(errs).length === 0) save.mutate({ topic: text.trim(), reference: reference.trim() || null })
        }}
      >
        <Field label={t('topic.topic')} error={errors.topic}>
          <input value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
        <Field label={t('topic.reference')} error={errors.reference} hint={t('topic.referenceHint')}>
          <textarea rows={3} value={reference} onChange={(e) => setReference(e.target.value)} />
        </Field>
        {general && <ErrorMessage error={general} />}
        <ErrorMessage error={del.error} />
        <div className="dialog-actions">
          {topic && (
            <button
              type="button"
              className="button button-danger"
              onClick={() => del.mutate()}
              disabled={del.isPending}
            >
              {t('topic.remove')}
            </button>
          )}
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {t('topic.save')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
