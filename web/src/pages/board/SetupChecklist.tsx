import { useId, useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { usePendingInvitations } from '../../api/accounts'
import { useProposalCount } from '../../api/proposals'
import { useStake } from '../../api/stake'
import { useUsers } from '../../api/users'
import { useWards } from '../../api/wards'
import type { Board, Me } from '../../api/types'
import { can, canAdministerStake } from '../../auth/roles'
import { ROUTES } from '../../routes'
import { StakeForm } from '../stake/StakeForm'
import { FoldToggle } from './FoldToggle'
import { useFold } from './useFold'

/** The permissions the four steps need: only someone who can take them all sees the list. */
const SETUP_PERMISSIONS = ['wards.manage', 'callings.manage', 'users.manage', 'proposals.submit'] as const

const dismissKey = (userId: number) => `stake.board.setupDismissed.${userId}`

function wasDismissed(userId: number): boolean {
  try {
    return localStorage.getItem(dismissKey(userId)) === '1'
  } catch {
    return false
  }
}

/** The browser's own time zone, proposed for a stake whose settings were never saved. */
function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined
  } catch {
    return undefined
  }
}

interface Step {
  key: 'stake' | 'wards' | 'seats' | 'users' | 'proposal'
  to: string
  done: boolean
}

/**
 * A new administrator's first steps, each ticked off from the data itself:
 * the stake's own settings saved (name, time zone, language, approvals,
 * seats: asked right here, the browser's zone proposed); every ward has a
 * bishop; enough presidency and high-council seats are filled for a proposal
 * to be approved; someone besides the administrator was invited or has signed
 * in and chosen a password (people imported from LCR alone do not count); a
 * proposal exists. Each step links to where it is done. Gone once all are
 * done or when dismissed (remembered on this device).
 */
export function SetupChecklist({ me, board }: { me: Me; board: Board | undefined }) {
  const { t } = useTranslation('board')
  const allowed = SETUP_PERMISSIONS.every((p) => can(me, p))
  const [dismissed, setDismissed] = useState(() => wasDismissed(me.id))
  const show = allowed && !dismissed
  const wards = useWards()
  const stake = useStake()
  const users = useUsers({ limit: 200, active: true, offset: 0 }, show)
  const invitations = usePendingInvitations(show)
  const proposals = useProposalCount(show)
  const [zone] = useState(browserZone)
  const [open, setOpen] = useFold(`stake.board.setupSeen.${me.id}`)
  const stepsId = useId()

  if (!show || !wards.data || !board || !users.data || !proposals.data || !stake.data || !invitations.data) return null
  // A person counts once someone can reach the service: invited, or signed in with a password of their own.
  const someoneElse =
    invitations.data.length > 0 || users.data.items.some((u) => u.id !== me.id && !u.roster && !u.force_password_reset)
  const stakeSaved = stake.data.settings_saved === true

  const voting = board.voting
  const steps: Step[] = [
    { key: 'stake', to: ROUTES.stakeSettings, done: stakeSaved },
    {
      key: 'wards',
      to: ROUTES.wards,
      done: wards.data.length > 0 && wards.data.every((w) => w.bishop_id != null),
    },
    {
      key: 'seats',
      to: ROUTES.callings,
      done:
        voting.sp_approval.voters.length >= voting.sp_approval.required &&
        voting.hc_approval.voters.length >= voting.hc_approval.required,
    },
    { key: 'users', to: ROUTES.users, done: someoneElse },
    { key: 'proposal', to: ROUTES.newProposal, done: proposals.data.total > 0 },
  ]
  const done = steps.filter((s) => s.done).length
  if (done === steps.length) return null

  function dismiss() {
    try {
      localStorage.setItem(dismissKey(me.id), '1')
    } catch {
      // storage blocked: hidden for this visit only
    }
    setDismissed(true)
  }

  return (
    <section
      className={`setup-checklist ${open ? '' : 'is-folded'}`}
      aria-labelledby="setup-title"
      data-testid="setup-checklist"
    >
      <div className="setup-head">
        <h2 id="setup-title">{t('setup.title')}</h2>
        <span className="muted small">{t('setup.progress', { done, total: steps.length })}</span>
        <FoldToggle open={open} onToggle={setOpen} controls={stepsId} what={t('setup.title')} />
        <button type="button" className="button button-small" onClick={dismiss}>
          {t('setup.dismiss')}
        </button>
      </div>
      {open && (
        <ol className="setup-steps" id={stepsId}>
          {steps.map((s) => (
            <li key={s.key} className={s.done ? 'is-done' : ''} data-step={s.key} data-done={s.done}>
              <span className="setup-mark" aria-hidden="true">
                {s.done ? '✓' : ''}
              </span>
              <span>
                <Link to={s.to}>{t(`setup.steps.${s.key}.title`)}</Link>
                <span className="visually-hidden"> — {s.done ? t('setup.done') : t('setup.todo')}</span>
                <span className="setup-hint muted small">{t(`setup.steps.${s.key}.hint`)}</span>
                {s.key === 'stake' && !s.done && canAdministerStake(me) && (
                  <span className="setup-stake-form">
                    <StakeForm stake={stake.data} initialZone={zone} intro={false} />
                  </span>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
      {open && can(me, 'users.manage') && can(me, 'callings.manage') && (
        <p className="setup-import small">
          <Link to={ROUTES.importLcr}>{t('setup.import.title')}</Link>{' '}
          <span className="muted">{t('setup.import.hint')}</span>
        </p>
      )}
    </section>
  )
}
