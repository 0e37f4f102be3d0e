import { useTranslation } from 'react-i18next'
import { useAnswerMatch } from '../../api/imports'
import type { ImportPreview } from '../../api/types'
import { ErrorMessage } from '../../components/ui'
import { possibleMatches } from './rowSummary'

const ANSWERS = [
  { accept: true, answer: 'accepted', label: 'matches.confirm' },
  { accept: false, answer: 'rejected', label: 'matches.reject' },
] as const

/**
 * Names of the report close to someone already in the stake (a middle name
 * added, a shorter first name). The clerk says for each whether it is the
 * same person; until then nothing is applied, and an answer can be changed.
 */
export function PossibleMatches({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('imports')
  const answering = useAnswerMatch(preview.id)
  const matches = possibleMatches(preview)
  if (matches.length === 0) return null
  const busy = answering.isPending
  return (
    <section className="stack card import-section" aria-labelledby="import-matches-title" data-testid="import-matches">
      <h3 id="import-matches-title">
        {t('matches.title')} <span className="muted small">({matches.length})</span>
      </h3>
      <p className="muted">{t('matches.intro')}</p>
      <ErrorMessage error={answering.error} />
      <ul className="import-match-list">
        {matches.map((m) => {
          const id = `import-match-${m.row}`
          return (
            <li key={m.row} className="import-match" data-testid="import-match" data-answer={m.answer ?? 'pending'}>
              <p id={id}>{t('matches.question', { row: m.row, name: m.name, candidate: m.candidate })}</p>
              <div className="button-row" role="group" aria-labelledby={id}>
                {ANSWERS.map(({ accept, answer, label }) => (
                  <button
                    key={answer}
                    type="button"
                    className={`button button-small${m.answer === answer ? ' button-primary' : ''}`}
                    aria-pressed={m.answer === answer}
                    disabled={busy}
                    onClick={() => answering.mutate({ row: m.row, accept })}
                  >
                    {t(label)}
                  </button>
                ))}
              </div>
              <p className="small" role="status">
                {m.answer === null ? (
                  <span className="badge badge-warn">{t('matches.pending')}</span>
                ) : (
                  t(`matches.${m.answer}`, { name: m.name, candidate: m.candidate })
                )}
              </p>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
