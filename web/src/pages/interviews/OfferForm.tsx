import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCreateOffer, type OfferInput } from '../../api/appointments'
import { useMe } from '../../auth/AuthProvider'
import { ErrorMessage, Field } from '../../components/ui'
import { DurationField } from './DurationField'

/** A booking link for one person: shown once, to copy and send. */
export function OfferForm() {
  const { t } = useTranslation('interviews')
  const me = useMe()
  const [kind, setKind] = useState<OfferInput['kind']>('temple_recommend')
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [who, setWho] = useState('me')
  const [duration, setDuration] = useState('30')
  const [url, setUrl] = useState<string | null>(null)
  const create = useCreateOffer({ onSuccess: (created) => setUrl(created.url) })
  return (
    <section className="card" aria-labelledby="iv-offer">
      <h2 id="iv-offer">{t('offer')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          setUrl(null)
          create.mutate({
            kind,
            name: name.trim() || null,
            email: email.trim() || null,
            phone: phone.trim() || null,
            interviewer_id: who === 'me' ? (me?.id ?? null) : null,
            duration_minutes: Number(duration),
          })
        }}
      >
        <Field label={t('kind')}>
          <select value={kind} onChange={(e) => setKind(e.target.value as OfferInput['kind'])}>
            <option value="temple_recommend">{t('kindTemple')}</option>
            <option value="ordination">{t('kindOrdination')}</option>
            <option value="other">{t('kindOther')}</option>
          </select>
        </Field>
        <Field label={t('name')}>
          <input value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('email')} hint={t('emailHint')}>
          <input type="email" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('phone')}>
          <input type="tel" value={phone} maxLength={40} onChange={(e) => setPhone(e.target.value)} />
        </Field>
        <Field label={t('interviewer')}>
          <select value={who} onChange={(e) => setWho(e.target.value)}>
            <option value="me">{t('me')}</option>
            <option value="any">{t('anyPresidency')}</option>
          </select>
        </Field>
        <DurationField value={duration} onChange={setDuration} />
        <ErrorMessage error={create.error} />
        <div className="dialog-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {t('makeLink')}
          </button>
        </div>
      </form>
      {url && (
        <Field label={t('link')} hint={t('linkHint')}>
          <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        </Field>
      )}
    </section>
  )
}
