/**
 * Who is in two places at once on a Sunday (docs/api-reference.md §18): pure,
 * over the Sunday's assignments and the high council's speaking rotation,
 * each a stretch of local minutes. Two stretches of one person that overlap
 * give one warning.
 */
export interface Placement {
  user: { id: number; fname: string; lname: string }
  /** What and where, in plain words ("visit to Aspen Ward"). */
  what: string
  start: number
  minutes: number
}

export function doubleAssignments(placements: readonly Placement[]): { user: Placement['user']; message: string }[] {
  const warnings: { user: Placement['user']; message: string }[] = []
  for (let i = 0; i < placements.length; i++) {
    for (let j = i + 1; j < placements.length; j++) {
      const a = placements[i]!
      const b = placements[j]!
      if (a.user.id !== b.user.id) continue
      if (a.start < b.start + b.minutes && b.start < a.start + a.minutes) {
        const name = `${a.user.fname} ${a.user.lname}`.trim()
        warnings.push({ user: a.user, message: `${name} is in two places at once: ${a.what} and ${b.what}` })
      }
    }
  }
  return warnings
}
