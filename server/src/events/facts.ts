import type { AuditDetail } from './types.ts'

// What a change changed, as the plain facts its event carries (ARCHITECTURE.md, "One change, one event").
type Plain = string | number | boolean | null

/** `{field: {from, to}}` of the fields whose value differs, or null when none does (no change, no entry). */
export function fieldChanges<K extends string>(
  before: Record<K, Plain>,
  after: Record<K, Plain>,
  fields: readonly K[],
): AuditDetail | null {
  const changed = fields.filter((f) => before[f] !== after[f])
  return changed.length === 0 ? null : Object.fromEntries(changed.map((f) => [f, { from: before[f], to: after[f] }]))
}

/** What a replacement of grants added and removed, or null when nothing changed. */
export function grantChanges(before: readonly string[], after: readonly string[]): AuditDetail | null {
  const added = after.filter((p) => !before.includes(p))
  const removed = before.filter((p) => !after.includes(p))
  return added.length + removed.length === 0 ? null : { added, removed }
}
