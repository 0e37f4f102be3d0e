import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useEmailPreference, useSaveEmailPreference } from '../../api/notifications'
import type { EmailPreference as Choice } from '../../api/types'
import { useNotify } from '../../components/Notice'
import { ErrorMessage, Loading } from '../../components/ui'

const CHOICES: Choice[] = ['immediate', 'daily', 'off']

/** Profile → Email notifications: immediate, a daily digest, or none. */
export function EmailPreference() {
  const { t } = useTranslation('notifications')
  const notify = useNotify()
  const preference = useEmailPreference()
  const save = useSaveEmailPreference()
  // The choice shows at once (a controlled radio would otherwise flip back until the answer).
  const [chosen, setChosen] = useState<Choice | null>(null)
  const current = chosen ?? preference.data?.email
  return (
    <section className="card" aria-labelledby="email-pref-h">
      <h2 id="email-pref-h">{t('preferences.title')}</h2>
      <p className="muted">{t('preferences.intro')}</p>
      {preference.isLoading && <Loading />}
      <ErrorMessage error={preference.error ?? save.error} />
      {preference.data && (
        <fieldset className="radio-group stack" disabled={save.isPending}>
          <legend className="visually-hidden">{t('preferences.title')}</legend>
          {CHOICES.map((option) => (
            <label key={option}>
              <input
                type="radio"
                name="email-preference"
                value={option}
                checked={current === option}
                onChange={() => {
                  setChosen(option)
                  save.mutate(option, {
                    onSuccess: () => notify(t('preferences.saved'), 'success'),
                    onError: () => setChosen(null),
                  })
                }}
              />
              {t(`preferences.${option}`)}
            </label>
          ))}
        </fieldset>
      )}
    </section>
  )
}
