import { useState } from 'react'
import { useTranslation } from 'react-i18next'

export default function UpdatePrompt({ onReload }: { onReload: () => void }) {
  const { t } = useTranslation('pwa')
  const [dismissed, setDismissed] = useState(false)
  if (dismissed) return null
  return (
    <div className="update-prompt" role="status">
      <span>{t('updateAvailable')}</span>
      <button type="button" className="button button-primary" onClick={onReload}>
        {t('reload')}
      </button>
      <button type="button" className="button" onClick={() => setDismissed(true)}>
        {t('later')}
      </button>
    </div>
  )
}
