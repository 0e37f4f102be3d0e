import { useId, useState } from 'react'
import { Link } from 'react-router'
import { SETUP_PERMISSIONS } from '@stake/contract/permissions'
import { useTranslation } from 'react-i18next'
import { useStake } from '../../api/stake'
import { useStakeSetup } from '../../api/stakeCache'
import type { Me } from '../../api/types'
import { can, canAdministerStake } from '../../auth/roles'
import { ROUTES } from '../../routes'
import { StakeForm } from '../stake/StakeForm'
import { FoldToggle } from './FoldToggle'
import { useFold } from './useFold'

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

/** Where each step is taken, in the list's order. */
const STEPS: readonly (readonly [Step['key'], string])[] = [
  ['stake', ROUTES.stakeSettings],
  ['wards', ROUTES.wards],
  ['seats', ROUTES.callings],
  ['users', ROUTES.users],
  ['proposal', ROUTES.newProposal],
]

/**
 * A new administrator's first steps, each ticked off by the server from the
 * data itself (GET /stake/setup, docs/api-reference.md §14): the stake's own
 * settings saved (name, time zone, language, approvals, seats: asked right
 * here, the browser's zone proposed); every ward has a bishop; enough
 * presidency and high-council seats are filled for a proposal to be approved;
 * someone besides the administrator was invited or has signed in with a
 * password of their own; a proposal exists. Each step links to where it is
 * done. The steps and the stake come with the board on a page load (the
 * refresh's `include`), so the list never arrives after the cards and pushes
 * them down. Gone once all are done or when dismissed (remembered on this device).
 */
export function SetupChecklist({ me }: { me: Me }) {
  const { t } = useTranslation('board')
  const allowed = SETUP_PERMISSIONS.every((p) => can(me, p))
  const [dismissed, setDismissed] = useState(() => wasDismissed(me.id))
  const show = allowed && !dismissed
  const setup = useStakeSetup(show)
  const stake = useStake(show)
  const [zone] = useState(browserZone)
  const [open, setOpen] = useFold(`stake.board.setupSeen.${me.id}`)
  const stepsId = useId()

  if (!show || !setup.data || !stake.data) return null
  const state = setup.data
  const steps: Step[] = STEPS.map(([key, to]) => ({ key, to, done: state[key] }))
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
