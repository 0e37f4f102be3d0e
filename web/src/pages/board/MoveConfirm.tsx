import * as RD from '@radix-ui/react-dialog'
import { useTranslation } from 'react-i18next'
import type { Proposal, Stage } from '../../api/types'
import type { CardVoting } from './ProposalCard'
import { names } from './boardText'

export interface PendingMove {
  proposal: Proposal
  to: Stage
  voting: CardVoting
}

/**
 * Asks before a forward move that leaves votes missing, and says what will
 * happen: the tally so far and who has not voted.
 */
export function MoveConfirm({
  pending,
  onCancel,
  onConfirm,
}: {
  pending: PendingMove | null
  onCancel(): void
  onConfirm(): void
}) {
  const { t, i18n } = useTranslation('board')
  const p = pending?.proposal
  return (
    <RD.Root open={!!pending} onOpenChange={(open) => !open && onCancel()}>
      <RD.Portal>
        <RD.Overlay className="dialog-overlay" />
        <RD.Content
          className="dialog"
          // The board puts focus back on the card, moved (confirmed) or not (cancelled).
          onCloseAutoFocus={(e) => e.preventDefault()}
        >
          {pending && p && (
            <>
              <div className="dialog-head">
                <RD.Title className="dialog-title">
                  {t('confirm.title', { name: `${p.fname} ${p.lname}`, stage: t(`stages.${pending.to}`) })}
                </RD.Title>
              </div>
              <RD.Description className="dialog-desc" asChild>
                <div>
                  <p>
                    {t('confirm.tally', {
                      approved: p.approvals.approved,
                      required: pending.voting.required,
                      stage: t(`stages.${p.stage}`),
                    })}
                    {p.approvals.rejected > 0 && ` ${t('confirm.rejected', { rejected: p.approvals.rejected })}`}
                  </p>
                  {pending.voting.pending.length > 0 && (
                    <p data-testid="confirm-missing">
                      {t('confirm.missing', { names: names(i18n.language, pending.voting.pending) })}
                    </p>
                  )}
                  <p>{t('confirm.effect', { stage: t(`stages.${pending.to}`) })}</p>
                </div>
              </RD.Description>
              <div className="dialog-actions">
                <button type="button" className="button" onClick={onCancel}>
                  {t('confirm.cancel')}
                </button>
                <button type="button" className="button button-primary" onClick={onConfirm}>
                  {t('confirm.move', { stage: t(`stages.${pending.to}`) })}
                </button>
              </div>
            </>
          )}
        </RD.Content>
      </RD.Portal>
    </RD.Root>
  )
}
