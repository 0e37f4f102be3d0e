import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useWards } from '../../api/wards'
import { useOpenScript, usePresent, useSustainings } from '../../api/sustainings'
import type { Proposal, Release } from '../../api/types'
import { useMe } from '../../auth/AuthProvider'
import { bishopWards, can } from '../../auth/roles'
import { ConfirmDialog } from '../../components/Dialog'
import { useNotify } from '../../components/Notice'
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/ui'
import { ROUTES } from '../../routes'
import { PresentedProgress } from './PresentedProgress'

/** The Sunday on or after today, in the browser's calendar. */
function thisSunday(): Date {
  const d = new Date()
  d.setDate(d.getDate() + ((7 - d.getDay()) % 7))
  return d
}

interface Line {
  key: string
  name: string
  calling: string
  proposal: Proposal
}

/** A ward's sustainings for this Sunday (docs/api-reference.md §12): releases first, then calls. */
export default function SustainingsPage() {
  const { t, i18n } = useTranslation('sustainings')
  const me = useMe()
  const notify = useNotify()
  const wards = useWards()
  const [params, setParams] = useSearchParams()
  const [confirm, setConfirm] = useState<Proposal | null>(null)
  const lang = (i18n.language === 'es' ? 'es' : 'en') as 'en' | 'es'
  const [scriptLang, setScriptLang] = useState<'en' | 'es'>(lang)

  const stakeWide = can(me, 'proposals.view') || can(me, 'proposals.manage')
  const own = bishopWards(me, wards.data ?? [])
  const choosable = stakeWide ? (wards.data ?? []) : own
  const requested = Number(params.get('ward'))
  const wardId = choosable.some((w) => w.id === requested) ? requested : (own[0]?.id ?? choosable[0]?.id ?? null)

  const list = useSustainings(wardId)
  const present = usePresent()
  const openScript = useOpenScript()

  if (wards.isLoading) return <Loading label={t('loading')} />
  if (wards.error) return <ErrorMessage error={wards.error} />

  const items = list.data?.items ?? []
  const releases: Line[] = []
  const calls: Line[] = []
  const ordinations: Line[] = []
  for (const { proposal, releases: released } of items) {
    released.forEach((r: Release, i) =>
      releases.push({ key: `${proposal.id}-r${i}`, name: `${r.fname} ${r.lname}`, calling: r.calling, proposal }),
    )
    const line = {
      key: `${proposal.id}`,
      name: `${proposal.fname} ${proposal.lname}`,
      calling: proposal.proposed_calling,
      proposal,
    }
    // docs/api-reference.md §18: an ordination is read last, "to be ordained an elder".
    if (proposal.kind === 'ordination')
      ordinations.push({ ...line, calling: t(`page.ordainedAs.${proposal.office ?? 'elder'}`) })
    else if (proposal.is_release) releases.push(line)
    else calls.push(line)
  }
  const sunday = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full' }).format(thisSunday())
  const wardName = choosable.find((w) => w.id === wardId)?.name ?? ''

  const section = (title: string, intro: string, lines: Line[], testId: string) =>
    lines.length > 0 && (
      <section className="card sustaining-section" aria-label={title} data-testid={testId}>
        <h2>{title}</h2>
        <p className="muted">{intro}</p>
        <ul className="sustaining-list">
          {lines.map((l) => (
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
                {l.key !== `${l.proposal.id}` && (
                  <div className="muted small">
                    {t('page.withProposal')}{' '}
                    <Link to={ROUTES.proposal(l.proposal.id)}>
                      {l.proposal.fname} {l.proposal.lname}
                    </Link>
                  </div>
                )}
              </div>
              {l.key === `${l.proposal.id}` && (
                <button type="button" className="button" onClick={() => setConfirm(l.proposal)}>
                  {t('page.markPresented')}
                </button>
              )}
            </li>
          ))}
        </ul>
      </section>
    )

  return (
    <div>
      <PageHeader
        title={t('page.title')}
        actions={
          wardId !== null && (
            <>
              <label className="field field-inline">
                <span>{t('page.scriptLanguage')}</span>
                <select value={scriptLang} onChange={(e) => setScriptLang(e.target.value as 'en' | 'es')}>
                  <option value="en">English</option>
                  <option value="es">Español</option>
                </select>
              </label>
              <button
                type="button"
                className="button"
                disabled={openScript.isPending}
                onClick={() =>
                  openScript.mutate(
                    { wardId, lang: scriptLang },
                    { onError: (e) => notify((e as Error).message, 'error') },
                  )
                }
              >
                {t('page.print')}
              </button>
            </>
          )
        }
      />
      {choosable.length > 1 && (
        <div className="filters">
          <label className="field field-inline">
            <span>{t('page.ward')}</span>
            <select value={wardId ?? ''} onChange={(e) => setParams({ ward: e.target.value })}>
              {choosable.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {wardId === null ? (
        <Empty>{t('page.noWard')}</Empty>
      ) : (
        <>
          <p className="lead">{t('page.sunday', { ward: wardName, date: sunday })}</p>
          {list.isLoading && <Loading label={t('loading')} />}
          {list.error && <ErrorMessage error={list.error} />}
          {list.data && items.length === 0 && <Empty>{t('page.nothing')}</Empty>}
          {section(t('page.releases'), t('page.releasesIntro'), releases, 'sustaining-releases')}
          {section(t('page.calls'), t('page.callsIntro'), calls, 'sustaining-calls')}
          {section(t('page.ordinations'), t('page.ordinationsIntro'), ordinations, 'sustaining-ordinations')}
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t('page.confirmTitle')}
        message={
          confirm
            ? t('page.confirmMessage', {
                name: `${confirm.fname} ${confirm.lname}`,
                calling: confirm.proposed_calling,
                ward: wardName,
              })
            : ''
        }
        confirmLabel={t('page.markPresented')}
        busy={present.isPending}
        onConfirm={() => {
          if (!confirm || wardId === null) return
          present.mutate(
            { proposalId: confirm.id, wardId },
            {
              onSuccess: () => {
                notify(t('page.presented'), 'success')
                setConfirm(null)
              },
              onError: (e) => {
                notify((e as Error).message, 'error')
                setConfirm(null)
              },
            },
          )
        }}
      />
    </div>
  )
}
