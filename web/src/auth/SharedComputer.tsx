import { Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { SHARED_SESSION_IDLE_SECONDS } from '@stake/contract/sessions'

const MINUTES = SHARED_SESSION_IDLE_SECONDS / 60

function Option({ checked, onChange }: { checked: boolean; onChange: (value: boolean) => void }) {
  const { t } = useTranslation('shared')
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
        {t('option')}
      </label>
      <small id="shared-computer-hint" className="hint">
        {t('hint', { minutes: MINUTES })}
      </small>
    </div>
  )
}

/** Sign-in: "This is a shared computer" (docs/api-reference.md §13). Its texts load with it; the form does not wait for them. */
export function SharedComputerOption(props: { checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <Suspense fallback={null}>
      <Option {...props} />
    </Suspense>
  )
}

function Notice() {
  const { t } = useTranslation('shared')
  return (
    <p className="info-box" role="status">
      {t('signedOut', { minutes: MINUTES })}
    </p>
  )
}

/** Sign-in, after a shared-computer session ended for inactivity: says why. */
export function SharedSignOutNotice() {
  return (
    <Suspense fallback={null}>
      <Notice />
    </Suspense>
  )
}
