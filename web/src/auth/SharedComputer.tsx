import { useTranslation } from 'react-i18next'
import { SHARED_SESSION_IDLE_SECONDS } from '@stake/contract/sessions'

const MINUTES = SHARED_SESSION_IDLE_SECONDS / 60

/**
 * Sign-in: "This is a shared computer" (docs/api-reference.md §13). Its texts
 * are in `common`, in the first download: the hint is the sign-in page's
 * largest text, and it paints with the form instead of a round trip later.
 */
export function SharedComputerOption({ checked, onChange }: { checked: boolean; onChange: (value: boolean) => void }) {
  const { t } = useTranslation()
  return (
    <div className="field">
      <label className="checkbox">
        <input
          type="checkbox"
          name="shared_computer"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby="shared-computer-hint"
        />{' '}
        {t('sharedComputer.option')}
      </label>
      <small id="shared-computer-hint" className="hint">
        {t('sharedComputer.hint', { minutes: MINUTES })}
      </small>
    </div>
  )
}

/** Sign-in, after a shared-computer session ended for inactivity: says why. */
export function SharedSignOutNotice() {
  const { t } = useTranslation()
  return (
    <p className="info-box" role="status">
      {t('sharedComputer.signedOut', { minutes: MINUTES })}
    </p>
  )
}
