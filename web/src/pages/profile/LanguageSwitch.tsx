import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useUpdateUser } from '../../api/users'
import { useAuth, useMe } from '../../auth/AuthProvider'
import { ErrorMessage } from '../../components/ui'
import { useNotify } from '../../components/Notice'
import { LANGUAGES, setLanguage, type Language } from '../../i18n'

/**
 * The client's language (docs/api-reference.md §13): the page changes at once, this device
 * remembers it, and the account keeps it (PUT /users/{id} {language}), so the
 * notifications and mail the server writes come in it too.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('profile')
  const me = useMe()
  const { reloadMe } = useAuth()
  const notify = useNotify()
  const update = useUpdateUser()
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  // The choice shows at once, while the texts in the new language are fetched.
  const [chosen, setChosen] = useState<Language | null>(null)
  const current = chosen ?? ((i18n.resolvedLanguage ?? 'en') as Language)

  async function choose(language: Language) {
    if (language === current) return
    setError(null)
    setChosen(language)
    setBusy(true)
    try {
      await setLanguage(language)
      await update.mutateAsync({
        id: me.id,
        body: { fname: me.fname, lname: me.lname, email: me.email, active: me.active, language },
      })
      await reloadMe()
      notify(i18n.t('language.saved', { ns: 'profile' }), 'success')
    } catch (err) {
      setError(err)
    } finally {
      setChosen(null)
      setBusy(false)
    }
  }

  return (
    <section className="card" aria-labelledby="language-h">
      <h2 id="language-h">{t('common:language.label')}</h2>
      <fieldset className="field" disabled={busy}>
        <legend className="visually-hidden">{t('common:language.label')}</legend>
        <div className="button-row" role="radiogroup" aria-labelledby="language-h">
          {LANGUAGES.map((language) => (
            <label key={language} className="checkbox" lang={language}>
              <input
                type="radio"
                name="language"
                value={language}
                checked={current === language}
                onChange={() => void choose(language)}
              />{' '}
              {t(`common:language.${language}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <p className="muted small">{t('language.hint')}</p>
      <ErrorMessage error={error} />
    </section>
  )
}
