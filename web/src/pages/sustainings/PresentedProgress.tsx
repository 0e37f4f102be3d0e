import { Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { useWards } from '../../api/wards'
import type { Proposal } from '../../api/types'

interface Props {
  proposal: Proposal
  className?: string
}

/**
 * "Presented in X of Y wards" for a stake-scope proposal (docs/api-reference.md §12), from
 * sustain on; Y counts the wards that exist now. Nothing for ward-scope ones.
 */
function Progress({ proposal, className }: Props) {
  const { t } = useTranslation('sustainings')
  const wards = useWards()
  if (proposal.scope !== 'stake') return null
  const total = wards.data?.length
  if (total === undefined) return null
  if (proposal.presented_in.length === 0 && proposal.stage !== 'sustain') return null
  return (
    <span className={`presented-progress ${className ?? ''}`} data-testid={`presented-${proposal.id}`}>
      {t('progress.presented', { count: proposal.presented_in.length, total })}
    </span>
  )
}

/** Mounted on board cards and the proposal page; renders nothing until its words have loaded. */
export function PresentedProgress(props: Props) {
  return (
    <Suspense fallback={null}>
      <Progress {...props} />
    </Suspense>
  )
}
