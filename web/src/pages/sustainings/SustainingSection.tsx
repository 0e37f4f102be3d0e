import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import type { Proposal } from '../../api/types'
import { ROUTES } from '../../routes'
import { PresentedProgress } from './PresentedProgress'
import type { Line } from './sustainingLines'

/** One part of the Sunday's list (releases, calls or ordinations); nothing when it is empty. */
export function SustainingSection({
  title,
  intro,
  lines,
  testId,
  onPresent,
}: {
  title: string
  intro: string
  lines: Line[]
  testId: string
  onPresent(proposal: Proposal): void
}) {
  const { t } = useTranslation('sustainings')
  if (lines.length === 0) return null
  return (
    <section className="card sustaining-section" aria-label={title} data-testid={testId}>
      <h2>{title}</h2>
      <p className="muted">{intro}</p>
      <ul className="sustaining-list">
        {lines.map((l) => {
          // A release read because of another proposal links to it; only a proposal's own line is marked presented.
          const own = l.key === `${l.proposal.id}`
          return (
            <li key={l.key} className="sustaining-item">
              <div>
                <strong>{l.name}</strong> — {l.calling}
                {l.proposal.scope === 'stake' && (
                  <>
                    {' '}
                    <span className="badge">{t('page.stakeBadge')}</span>{' '}
                    <PresentedProgress proposal={l.proposal} className="muted small" />
                  </>
                )}
                {!own && (
                  <div className="muted small">
                    {t('page.withProposal')}{' '}
                    <Link to={ROUTES.proposal(l.proposal.id)}>
                      {l.proposal.fname} {l.proposal.lname}
                    </Link>
                  </div>
                )}
              </div>
              {own && (
                <button type="button" className="button" onClick={() => onPresent(l.proposal)}>
                  {t('page.markPresented')}
                </button>
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
