import { useTranslation } from 'react-i18next'
import { useStake } from '../../api/stake'
import { ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { StakeForm } from './StakeForm'

/** The stake's settings (docs/api-reference.md §14): for a holder of all seven permissions. */
export default function StakeSettingsPage() {
  const { t } = useTranslation('stake')
  const stake = useStake()
  return (
    <div className="narrow">
      <PageHeader title={t('settings.title')} />
      {stake.isLoading && <Loading />}
      <ErrorMessage error={stake.error} />
      {stake.data && <StakeForm key={stake.data.id} stake={stake.data} />}
    </div>
  )
}
