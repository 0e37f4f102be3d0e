import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useCallingOptions } from '../../api/callings'
import type { ProposalInput } from '../../api/types'
import { useUsersLite } from '../../api/users'
import { splitError, type FieldErrors } from '../../components/ui'

const FIELDS = [
  'fname',
  'lname',
  'spouse_name',
  'proposed_calling',
  'ward_id',
  'submitter',
  'is_release',
  'kind',
  'office',
  'scope',
  'calling_id',
  'user_id',
  'releases',
]

/**
 * A proposal's form state: picking a person or a calling on the roster fills
 * what it names; submitting checks what is missing (one line at the top, each
 * field saying what) and trims what is sent.
 */
export function useProposalForm({
  initial,
  lockedWardId,
  onSubmit,
}: {
  initial: ProposalInput
  lockedWardId?: number | null
  onSubmit(input: ProposalInput): Promise<unknown>
}) {
  const { t } = useTranslation('sustainings')
  const [v, setV] = useState<ProposalInput>(() => ({
    scope: 'ward',
    releases: [],
    calling_id: null,
    user_id: null,
    ...initial,
    ...(lockedWardId != null ? { ward_id: lockedWardId } : {}),
  }))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const callings = useCallingOptions()
  const users = useUsersLite()
  /** Picking a person on the roster fills the names (the roster has no spouse to fill). */
  const pickPerson = (id: number | null) => {
    const u = id === null ? undefined : users.data?.find((x) => x.id === id)
    setV((x) => ({ ...x, user_id: id, ...(u ? { fname: u.fname, lname: u.lname } : {}) }))
  }
  /** Picking a calling fills the proposed calling and, when its seats are in one ward, that ward. */
  const pickCalling = (id: number | null) => {
    const c = id === null ? undefined : callings.data?.find((x) => x.id === id)
    const wardsOf = new Set((c?.slots ?? []).map((slot) => slot.ward_id).filter((w): w is number => w !== null))
    const ward = wardsOf.size === 1 && lockedWardId == null ? [...wardsOf][0]! : undefined
    setV((x) => ({
      ...x,
      calling_id: id,
      ...(c ? { proposed_calling: c.name } : {}),
      ...(ward !== undefined ? { ward_id: ward } : {}),
    }))
  }
  const releases = v.releases ?? []
  // docs/api-reference.md §18: an ordination names an office, not a calling, and seats nobody.
  const kind = v.kind ?? (v.is_release ? 'release' : 'call')
  const ordination = kind === 'ordination'
  const chooseKind = (next: 'call' | 'release' | 'ordination') =>
    setV((x) => ({
      ...x,
      kind: next,
      is_release: next === 'release',
      office: next === 'ordination' ? (x.office ?? 'elder') : null,
    }))

  const set = <K extends keyof ProposalInput>(k: K, value: ProposalInput[K]) => setV((x) => ({ ...x, [k]: value }))

  async function submit(e: FormEvent) {
    e.preventDefault()
    const errs: FieldErrors = {}
    if (!v.fname.trim()) errs.fname = t('form.errors.fname')
    if (!v.lname.trim()) errs.lname = t('form.errors.lname')
    if (!ordination && !v.proposed_calling.trim()) errs.proposed_calling = t('form.errors.calling')
    if (!v.ward_id) errs.ward_id = t('form.errors.ward')
    releases.forEach((r, i) => {
      if (!r.fname.trim()) errs[`releases.${i}.fname`] = t('form.errors.releaseName', { n: i + 1 })
      if (!r.lname.trim()) errs[`releases.${i}.lname`] = t('form.errors.releaseName', { n: i + 1 })
      if (!r.calling.trim()) errs[`releases.${i}.calling`] = t('form.errors.releaseCalling', { n: i + 1 })
    })
    setErrors(errs)
    // One line at the top says how many fields are missing; each says what, beside it.
    const missing = Object.keys(errs).length
    setGeneral(missing > 0 ? t('form.errors.missing', { count: missing }) : null)
    if (Object.keys(errs).length > 0) return
    setBusy(true)
    try {
      await onSubmit({
        ...v,
        fname: v.fname.trim(),
        lname: v.lname.trim(),
        // An ordination's "calling" is its office, in the words of the person who submits it.
        proposed_calling: ordination ? t(`form.office.${v.office ?? 'elder'}`) : v.proposed_calling.trim(),
        ...(ordination ? { calling_id: null, user_id: null } : {}),
        spouse_name: v.spouse_name?.trim() ? v.spouse_name.trim() : null,
        releases: releases.map((r) => ({
          fname: r.fname.trim(),
          lname: r.lname.trim(),
          calling: r.calling.trim(),
          calling_id: r.calling_id ?? null,
          user_id: r.user_id ?? null,
        })),
      })
    } catch (err) {
      const { fields, general: g } = splitError(err, FIELDS)
      setErrors(fields)
      setGeneral(g)
    } finally {
      setBusy(false)
    }
  }

  return { v, set, errors, general, busy, kind, ordination, releases, pickPerson, pickCalling, chooseKind, submit }
}
