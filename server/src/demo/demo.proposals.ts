import type { DemoCaller } from './demo.http.ts'
import { DEMO_MEMBERS, type DemoPerson } from './demo.people.ts'
import type { Seated } from './demo.seed.ts'

export interface DemoCast {
  clerk: DemoCaller
  /** President, first counselor, second counselor. */
  presidency: Seated[]
  councilors: Seated[]
  /** Bishop i presides over ward i. */
  bishops: Seated[]
  wards: { id: number; name: string }[]
}

interface Made {
  id: number
  stage: string
}

/** The proposals the week shows (docs/demo.md): their ids by what they wait for. */
export interface DemoProposals {
  /** At `interview`, the president its interviewer (booked by the person). */
  presidentInterview: number
  /** An ordination at `interview`, the first counselor its interviewer (booked by the person). */
  counselorInterview: number
}

const member = (i: number) => DEMO_MEMBERS[i % DEMO_MEMBERS.length]!

/**
 * Proposals in every stage of the three paths (calls, releases, ordinations),
 * each moved there the way its people would: votes, interviews, presentations
 * in the wards, the clerk's named steps. Left so that each role printed by the
 * demo finds work waiting: the president a vote and an interview, the first
 * high councilor a vote and an interview, the first bishop a presentation.
 */
export async function seedProposals(cast: DemoCast): Promise<DemoProposals> {
  const { clerk, presidency, councilors, bishops, wards } = cast
  const [president, first, second] = presidency as [Seated, Seated, Seated]
  const url = (p: Made, tail = '') => `/calling-kanban/proposals/${p.id}${tail}`

  const submit = async (
    ward: number,
    who: DemoPerson & { spouse?: string },
    fields: Record<string, unknown>,
    by: DemoCaller = bishops[ward]!.as,
  ): Promise<Made> =>
    by.post('/calling-kanban/proposals', {
      fname: who.fname,
      lname: who.lname,
      spouse_name: who.spouse ?? null,
      ward_id: wards[ward]!.id,
      ...fields,
    })
  const vote = (p: Made, voter: Seated, approved = true) =>
    voter.as.post<unknown>(url(p, `/approvals?approved=${approved}`))
  const current = async (p: Made): Promise<Made> => clerk.get(url(p))
  /** The presidency's two approvals (two are required): the proposal moves on by itself. */
  const presidencyApproves = async (p: Made) => {
    await vote(p, first)
    await vote(p, second)
    return current(p)
  }
  /** Three high councilors' approvals (three are required), never the first councilor's own. */
  const councilApproves = async (p: Made) => {
    for (const hc of councilors.slice(1, 4)) await vote(p, hc)
    return current(p)
  }
  const interview = (p: Made, interviewer: Seated) => clerk.post(url(p, `/interview?interviewer_id=${interviewer.id}`))
  const completeInterview = async (p: Made, interviewer: Seated) => {
    await interview(p, interviewer)
    await interviewer.as.post(url(p, '/interview/complete'))
    return current(p)
  }
  const present = async (p: Made, ward: number) => {
    await clerk.post(url(p, '/presented'), { ward_id: wards[ward]!.id })
    return current(p)
  }
  const step = async (p: Made, name: 'set-apart' | 'ordain' | 'record') => clerk.post<Made>(url(p, `/${name}`))
  const comment = (p: Made, by: Seated, text: string) => by.as.post(url(p, '/comments'), { comment_text: text })

  const call = (calling: string) => ({ kind: 'call', proposed_calling: calling })
  const release = (calling: string) => ({ kind: 'release', proposed_calling: calling })
  const ordination = (office: 'elder' | 'high_priest') => ({
    kind: 'ordination',
    office,
    proposed_calling: office === 'elder' ? 'Elder' : 'High priest',
  })

  // Waiting for the presidency: the president's vote is the one missing.
  const waitingForPresident = await submit(0, member(0), call('Primary president'))
  await vote(waitingForPresident, first)
  await comment(waitingForPresident, first, 'She served in the Primary presidency of her last ward; a good fit.')
  await submit(1, member(1), ordination('elder'))

  // At the high council: two of three approvals in, the first councilor's vote waits.
  const atCouncil = await presidencyApproves(await submit(2, member(3), call('Elders quorum president')))
  await vote(atCouncil, councilors[1]!)
  await vote(atCouncil, councilors[2]!)
  const fresh = await presidencyApproves(await submit(3, member(5), call('Ward clerk')))
  await comment(fresh, president, 'Please check with the bishop about his work schedule.')

  // Interviews: the president's (booked later by the person), the first councilor's, the first counselor's.
  const presidentInterview = await councilApproves(
    await presidencyApproves(await submit(4, member(4), call('Relief Society president'))),
  )
  await interview(presidentInterview, president)
  const releaseInterview = await submit(0, member(2), release('Sunday School teacher'))
  await interview(releaseInterview, councilors[0]!)
  const counselorInterview = await presidencyApproves(await submit(5, member(7), ordination('high_priest')))
  await interview(counselorInterview, first)

  // Sustaining: one for the first ward (its bishop presents it), one for the whole stake.
  const toSustain = await councilApproves(
    await presidencyApproves(
      await submit(0, member(6), {
        ...call('Young Women president'),
        releases: [{ fname: member(16).fname, lname: member(16).lname, calling: 'Young Women president' }],
      }),
    ),
  )
  await completeInterview(toSustain, councilors[0]!)
  const stakeWide = await councilApproves(
    await presidencyApproves(await submit(6, member(8), { ...call('Stake Primary president'), scope: 'stake' }, clerk)),
  )
  await completeInterview(stakeWide, president)
  for (const ward of [2, 3, 4, 5]) await present(stakeWide, ward)

  // Further along each path.
  const toSetApart = await councilApproves(
    await presidencyApproves(await submit(6, member(9), call('Bishopric first counselor'))),
  )
  await completeInterview(toSetApart, councilors[6]!)
  await present(toSetApart, 6)

  const toOrdain = await presidencyApproves(await submit(7, member(10), ordination('elder')))
  await completeInterview(toOrdain, second)
  await councilApproves(toOrdain)
  await present(toOrdain, 7)

  const toRecord = await councilApproves(
    await presidencyApproves(await submit(1, member(12), call('Ward mission leader'))),
  )
  await completeInterview(toRecord, councilors[1]!)
  await step(await present(toRecord, 1), 'set-apart')

  const doneCall = await councilApproves(
    await presidencyApproves(await submit(2, member(11), call('Ward choir director'))),
  )
  await completeInterview(doneCall, councilors[2]!)
  await step(await step(await present(doneCall, 2), 'set-apart'), 'record')

  const doneRelease = await submit(3, member(13), release('Primary teacher'))
  await completeInterview(doneRelease, councilors[3]!)
  await step(await present(doneRelease, 3), 'record')

  const declined = await submit(4, member(14), call('Activities committee chair'))
  await vote(declined, second, false)
  await clerk.post(url(declined, '/decline'), { reason: 'He is moving out of the stake next month.' })

  return { presidentInterview: presidentInterview.id, counselorInterview: counselorInterview.id }
}
