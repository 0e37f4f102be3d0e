import type { Proposal, Sustainings } from '../../api/types'

/** One name read from the pulpit; a release made by another proposal carries that proposal. */
export interface Line {
  key: string
  name: string
  calling: string
  proposal: Proposal
}

/** The ward's list in reading order: releases first, then calls, then ordinations. */
export function readingOrder(items: Sustainings['items'], ordainedAs: (office: string) => string) {
  const releases: Line[] = []
  const calls: Line[] = []
  const ordinations: Line[] = []
  for (const { proposal, releases: released } of items) {
    released.forEach((r, i) =>
      releases.push({ key: `${proposal.id}-r${i}`, name: `${r.fname} ${r.lname}`, calling: r.calling, proposal }),
    )
    const line = {
      key: `${proposal.id}`,
      name: `${proposal.fname} ${proposal.lname}`,
      calling: proposal.proposed_calling,
      proposal,
    }
    // docs/api-reference.md §18: an ordination is read last, "to be ordained an elder".
    if (proposal.kind === 'ordination') ordinations.push({ ...line, calling: ordainedAs(proposal.office ?? 'elder') })
    else if (proposal.is_release) releases.push(line)
    else calls.push(line)
  }
  return { releases, calls, ordinations }
}
