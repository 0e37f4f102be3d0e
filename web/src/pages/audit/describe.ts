import type { TFunction } from 'i18next'
import type { AuditEntry } from '../../api/audit'
import { dateFormat } from '../../i18n/format'

type Translate = TFunction<'audit'>

export interface Names {
  /** Everyone's name by user id (inactive users too). */
  person(id: number | null | undefined): string
  /** A ward's name by id. */
  ward(id: number | null | undefined): string
  /** Dates and months in the reader's language (Intl). */
  language: string
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null)

/**
 * One audit entry in plain words ("Ann Lee moved Juan Pérez's proposal to
 * Interview"). Every fact comes from the entry itself, so an entry still
 * reads after what it names was renamed or deleted; ids stand in for what
 * the reader may not see (a proposal's names without proposals.manage).
 */
export function describeEntry(entry: AuditEntry, t: Translate, names: Names): string {
  const d = entry.detail
  const [group, verb] = entry.action.split('.') as [string, string]
  // Nobody signed in: a booking link's holder is named as the link; anyone else is "someone".
  const actor =
    entry.actor_id !== null
      ? names.person(entry.actor_id)
      : entry.anonymous_actor
        ? t(`audit:anonymous.${entry.anonymous_actor}`)
        : t('audit:someone')
  const target = entry.target_type === 'user' ? names.person(entry.target_id) : ''
  const fields = () => {
    const changes = d.changes && typeof d.changes === 'object' ? Object.keys(d.changes) : []
    return changes.map((f) => t(`audit:fields.${f}`, { defaultValue: f })).join(', ')
  }
  const fullName = [text(d.fname), text(d.lname)].filter(Boolean).join(' ')
  const proposal = fullName
    ? t('audit:proposalOf', { name: fullName })
    : t('audit:proposalNumber', { id: entry.target_id ?? '?' })
  const stage = (value: unknown) => t(`audit:stages.${text(value)}`, { defaultValue: text(value) })
  const time = (value: unknown) =>
    typeof value === 'string'
      ? dateFormat({ dateStyle: 'medium', timeStyle: 'short' }, names.language).format(new Date(value))
      : ''
  const month = () => {
    const year = num(d.year)
    const m = num(d.month)
    if (year === null || m === null) return ''
    return dateFormat({ month: 'long', year: 'numeric', timeZone: 'UTC' }, names.language).format(
      new Date(Date.UTC(year, m - 1, 1)),
    )
  }
  const values: Record<string, unknown> = {
    actor,
    target,
    name: text(d.name),
    fields: fields(),
    proposal,
    url: text(d.url),
  }

  switch (entry.action) {
    case 'slot.fill':
    case 'slot.release':
      return t(`audit:sentences.slot.${verb}`, {
        ...values,
        person: names.person(num(d.user_id)),
        calling: text(d.calling),
        slot: num(d.slot_id) ?? '?',
      })
    case 'proposal.stage':
      return t('audit:sentences.proposal.stage', { ...values, stage: stage(d.to) })
    case 'proposal.vote': {
      const key = d.approved === true ? 'approve' : d.approved === false ? 'reject' : 'vote'
      return t(`audit:sentences.proposal.${key}`, values)
    }
    case 'override.set':
    case 'override.clear': {
      const ward = d.ward_id === null ? t('audit:notSpeaking') : names.ward(num(d.ward_id))
      return t(`audit:sentences.override.${verb}`, {
        ...values,
        person: names.person(num(d.high_councilor_id)),
        ward,
        month: month(),
      })
    }
    case 'appointment.offer':
    case 'appointment.book':
    case 'appointment.move':
    case 'appointment.cancel':
      return t(`audit:sentences.appointment.${verb}`, {
        ...values,
        // A proposal's interview is named by the proposal's number only (the entry keeps no name).
        who: text(d.name) || t('audit:proposalNumber', { id: num(d.proposal_id) ?? '?' }),
        person: names.person(num(d.interviewer_id)),
        time: time(d.starts_at),
        from: time(d.from),
      })
    case 'auth.login_failed':
      return entry.target_id === null
        ? t('audit:sentences.auth.login_failed_unknown')
        : t('audit:sentences.auth.login_failed', { ...values, reason: t(`audit:reasons.${text(d.reason)}`) })
    case 'auth.lock':
      if (d.scope === 'ip') return t('audit:sentences.auth.lock_ip', { ip: text(d.ip), until: time(d.until) })
      return entry.target_id === null
        ? t('audit:sentences.auth.lock_unknown', { until: time(d.until) })
        : t('audit:sentences.auth.lock', { ...values, until: time(d.until) })
  }
  const key = `audit:sentences.${group}.${verb}`
  const sentence = t(key, { ...values, defaultValue: '' })
  return sentence || t('audit:sentences.other', { actor, action: entry.action })
}
