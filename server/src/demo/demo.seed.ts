import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Config } from '../config.ts'
import type { Clock } from '../clock.ts'
import type { Dialect } from '../db/database.ts'
import type { DB } from '../db/schema.ts'
import type { FastifyTypebox } from '../http.ts'
import { PasswordHasher, randomPassword } from '../modules/auth/passwords.ts'
import { openStake } from '../modules/stakes/stakes.service.ts'
import { DemoCaller, signIn, tokenOf } from './demo.http.ts'
import {
  DEMO_BISHOPS,
  DEMO_HIGH_COUNCILORS,
  DEMO_STAKE_OFFICERS,
  DEMO_TOPICS,
  DEMO_WARDS,
  mailbox,
} from './demo.people.ts'
import type { DemoPerson } from './demo.people.ts'
import { seedProposals, type DemoCast } from './demo.proposals.ts'
import { seedWeek } from './demo.week.ts'

interface DemoAccount {
  role: 'president' | 'clerk' | 'high_councilor' | 'bishop'
  name: string
  email: string
}

export interface DemoResult {
  stake_id: number
  stake_name: string
  /** Every demo account signs in with this password (made for this run, printed once). */
  password: string
  accounts: DemoAccount[]
}

interface Seated extends DemoPerson {
  id: number
  email: string
  as: DemoCaller
}

/**
 * A demo stake with invented people, made through the API (docs/demo.md):
 * the stake and its administrator (the clerk) as the operator's
 * `stake create` makes them, then everything else as its people would do it.
 * `app` must be built without mail, so no invented address is ever written to.
 */
export async function seedDemo(
  deps: { app: FastifyTypebox; db: Kysely<DB>; dialect: Dialect; config: Config; clock: Clock },
  stakeName: string,
): Promise<DemoResult> {
  const { app, db, dialect, config, clock } = deps
  const password = `demo-${randomPassword()}`
  // Addresses carry a per-run tag: emails are unique across a deployment, which may hold several demos.
  const tag = crypto.randomBytes(3).toString('hex')
  const address = (p: DemoPerson) => `${mailbox(p)}@demo-${tag}.example.com`
  const [president, first, second, secretary, clerkPerson] = DEMO_STAKE_OFFICERS as [
    DemoPerson,
    DemoPerson,
    DemoPerson,
    DemoPerson,
    DemoPerson,
  ]

  const { stakeId, adminId } = await openStake(
    db,
    dialect,
    config,
    {
      name: stakeName,
      admin: {
        email: address(clerkPerson),
        ...clerkPerson,
        password_hash: await new PasswordHasher(config.argon2).hash(password),
        force_password_reset: false,
      },
    },
    clock.iso(),
    { source: 'operator' },
  )
  const clerk = await signIn(app, address(clerkPerson), password)
  const stake = await clerk.get<{ timezone: string }>('/stake')
  await clerk.put('/stake', {
    name: stakeName,
    timezone: stake.timezone,
    language: 'en',
    sp_approvals_required: 2,
    hc_approvals_required: 3,
    high_council_seats: DEMO_HIGH_COUNCILORS.length,
  })

  /** An account invited by the clerk and accepted with the demo password: signed in through the invitation. */
  const person = async (p: DemoPerson): Promise<Seated> => {
    const created = await clerk.post<{ id: number; invitation: { url?: string } }>('/users/', {
      email: address(p),
      fname: p.fname,
      lname: p.lname,
      invite: true,
    })
    if (!created.invitation.url) throw new Error('demo: the demo needs an app without mail')
    const accepted = await new DemoCaller(app, null).post<{ access_token: string }>(
      `/auth/invitations/${tokenOf(created.invitation.url)}`,
      { password },
    )
    return { ...p, id: created.id, email: address(p), as: new DemoCaller(app, accepted.access_token) }
  }

  const callings = await clerk.get<{ id: number; key: string | null }[]>('/callings/?system_defined=true&limit=100')
  const callingId = (key: string) => callings.find((c) => c.key === key)!.id
  const seat = (key: string, slot: number, userId: number) =>
    clerk.put(`/callings/${callingId(key)}/${slot}`, { user_id: userId })

  const presidency = [await person(president), await person(first), await person(second)]
  await seat('stake_president', 1, presidency[0]!.id)
  await seat('stake_first_counselor', 1, presidency[1]!.id)
  await seat('stake_second_counselor', 1, presidency[2]!.id)
  const secretaryUser = await person(secretary)
  await seat('stake_executive_secretary', 1, secretaryUser.id)
  await seat('stake_clerk', 1, adminId)

  const councilors: Seated[] = []
  for (const [i, p] of DEMO_HIGH_COUNCILORS.entries()) {
    const hc = await person(p)
    await seat('high_councilor', i + 1, hc.id)
    councilors.push(hc)
  }

  const bishops: Seated[] = []
  const wards: { id: number; name: string }[] = []
  for (const [i, w] of DEMO_WARDS.entries()) {
    const bishop = await person(DEMO_BISHOPS[i]!)
    bishops.push(bishop)
    wards.push(await clerk.post('/wards/', { name: w.name, start_time: w.start_time, bishop_id: bishop.id }))
  }

  // Each high councilor looks after one ward (the first eight) or stake organizations.
  const organizations = [['Sunday School'], ['Young Men'], ['Primary'], ['Relief Society'], ['Family history']]
  await clerk.put('/stewardships', {
    seats: councilors.map((_, i) => ({
      slot_id: i + 1,
      ward_ids: i < wards.length ? [wards[i]!.id] : [],
      organizations: organizations[i % organizations.length],
    })),
  })

  const year = Number(
    new Intl.DateTimeFormat('en-CA', { timeZone: stake.timezone, year: 'numeric' }).format(clock.now()),
  )
  for (const y of [year, year + 1]) {
    for (const [m, topic] of DEMO_TOPICS.entries()) await clerk.put(`/speaking/topics/${y}/${m + 1}`, { topic })
  }

  const cast: DemoCast = { clerk, presidency, councilors, bishops, wards }
  await seedWeek(cast, await seedProposals(cast), stake.timezone, clock)

  return {
    stake_id: stakeId,
    stake_name: stakeName,
    password,
    accounts: [
      { role: 'president', name: `${president.fname} ${president.lname}`, email: presidency[0]!.email },
      { role: 'clerk', name: `${clerkPerson.fname} ${clerkPerson.lname}`, email: address(clerkPerson) },
      { role: 'high_councilor', name: `${councilors[0]!.fname} ${councilors[0]!.lname}`, email: councilors[0]!.email },
      { role: 'bishop', name: `${bishops[0]!.fname} ${bishops[0]!.lname}`, email: bishops[0]!.email },
    ],
  }
}

export type { Seated }
