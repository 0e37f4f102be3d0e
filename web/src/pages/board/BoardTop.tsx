import { Suspense } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { Stage } from '../../api/types'
import { useWards } from '../../api/wards'
import { useMe } from '../../auth/AuthProvider'
import { can } from '../../auth/roles'
import { PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { NeedsMe } from './NeedsMe'
import { SetupChecklist } from './SetupChecklist'
import type { OneTapVotes } from './useOneTapVotes'

/** The board's title and New proposal, then the first-run list and "Needs me" (strips once seen). */
export function BoardTop({ votes, onShow }: { votes: OneTapVotes; onShow(item: { id: number; stage: Stage }): void }) {
  const { t } = useTranslation('board')
  const me = useMe()
  const wards = useWards()
  return (
    <>
      <PageHeader
        title={t('title')}
        actions={
          can(me, 'proposals.submit') ? (
            <Link to={ROUTES.newProposal} className="button button-primary">
              {t('newProposal')}
            </Link>
          ) : undefined
        }
      />
      <div className="board-strips">
        {/* Its stake form's texts load when it first shows (with the first screen when its steps came with it,
            useBootSession): until then it waits alone, never hiding the board. */}
        <Suspense fallback={null}>
          <SetupChecklist me={me} />
        </Suspense>
        <NeedsMe wards={wards.data} votes={votes} userId={me.id} onShow={onShow} />
      </div>
    </>
  )
}
