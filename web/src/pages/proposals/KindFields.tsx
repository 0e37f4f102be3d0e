import { useTranslation } from 'react-i18next'
import type { FieldErrors } from '../../components/ui'

type Kind = 'call' | 'release' | 'ordination'
type Office = 'elder' | 'high_priest'

/** What kind of proposal (a call, a release, an ordination) and, for an ordination, which office. */
export function KindFields({
  kind,
  office,
  allowChoice,
  errors,
  onKind,
  onOffice,
}: {
  kind: Kind
  office: Office
  allowChoice: boolean
  errors: FieldErrors
  onKind(kind: Kind): void
  onOffice(office: Office): void
}) {
  const { t } = useTranslation('sustainings')
  return (
    <>
      {allowChoice && (
        <fieldset className="field radio-group span-2 kind-choice" data-testid="proposal-kind">
          <legend>{t('form.kindQuestion')}</legend>
          {(['call', 'release', 'ordination'] as const).map((k) => (
            <label key={k}>
              <input type="radio" name="kind" checked={kind === k} onChange={() => onKind(k)} /> {t(`form.kinds.${k}`)}
            </label>
          ))}
          {(errors.is_release || errors.kind) && (
            <small className="field-error">{errors.kind ?? errors.is_release}</small>
          )}
        </fieldset>
      )}
      {kind === 'ordination' && (
        <fieldset className="field radio-group span-2">
          <legend>{t('form.officeQuestion')}</legend>
          {(['elder', 'high_priest'] as const).map((o) => (
            <label key={o}>
              <input
                type="radio"
                name="office"
                checked={office === o}
                disabled={!allowChoice}
                onChange={() => onOffice(o)}
              />{' '}
              {t(`form.office.${o}`)}
            </label>
          ))}
          {errors.office && <small className="field-error">{errors.office}</small>}
        </fieldset>
      )}
    </>
  )
}
