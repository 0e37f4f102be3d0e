import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, it } from 'node:test'
import { injectAs } from '../test/factories.ts'
import { useTestApp, type TestApp } from '../test/harness.ts'
import type { DemoResult } from './demo.seed.ts'

const CLI = path.join(import.meta.dirname, '../cli.ts')

/** `npm run cli -- ...` as a process against the test's database. */
function cli(t: TestApp, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    // Cheap hashing would change nothing the test looks at; the CLI uses the production cost.
    env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'warn', SMTP_URL: 'smtp://127.0.0.1:9' },
    encoding: 'utf8',
  })
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`)
  return result.stdout
}

const t = useTestApp({}, { shareable: true })

async function signIn(email: string, password: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password }).toString(),
  })
  return { status: res.statusCode, as: res.statusCode === 200 ? injectAs(t, res.json().access_token) : null }
}

async function roleOf(demo: DemoResult, role: DemoResult['accounts'][number]['role']) {
  const account = demo.accounts.find((a) => a.role === role)!
  const { status, as } = await signIn(account.email, demo.password)
  assert.equal(status, 200, `${role} signs in with the printed password`)
  return as!
}

describe('npm run cli -- demo', () => {
  let demo: DemoResult

  it('makes a stake of invented people, prints each role sign-in, and mails nobody even with mail configured', async () => {
    demo = JSON.parse(cli(t, 'demo', '--stake', 'Test Demo', '--json'))
    assert.equal(demo.stake_name, 'Test Demo')
    assert.deepEqual(demo.accounts.map((a) => a.role).sort(), ['bishop', 'clerk', 'high_councilor', 'president'])
    for (const a of demo.accounts) assert.match(a.email, /@demo-[0-9a-f]{6}\.example\.com$/)
    const mail = await t.database.db.selectFrom('mail_outbox').select('id').execute()
    assert.equal(mail.length, 0)
  })

  it('seats a presidency, a clerk, 12 high councilors and a bishop in each of 8 wards', async () => {
    const clerk = await roleOf(demo, 'clerk')
    const stake = (await clerk('GET', '/api/stake')).json()
    assert.equal(stake.id, demo.stake_id)
    assert.equal(stake.high_council_seats, 12)
    const wards = (await clerk('GET', '/api/wards/')).json()
    assert.equal(wards.length, 8)
    assert.ok(wards.every((w: { bishop_id: number | null }) => w.bishop_id !== null))
    const callings = (await clerk('GET', '/api/callings/?system_defined=true&limit=100')).json()
    for (const key of ['stake_president', 'stake_first_counselor', 'stake_second_counselor', 'stake_clerk']) {
      const calling = (
        await clerk('GET', `/api/callings/${callings.find((c: { key: string }) => c.key === key).id}`)
      ).json()
      assert.ok(
        calling.slots.every((s: { filled: boolean }) => s.filled),
        key,
      )
    }
    const hc = callings.find((c: { key: string }) => c.key === 'high_councilor')
    const seats = (await clerk('GET', `/api/callings/${hc.id}`)).json().slots
    assert.equal(seats.filter((s: { filled: boolean }) => s.filled).length, 12)
  })

  it('has proposals in every stage of calls, releases and ordinations', async () => {
    const clerk = await roleOf(demo, 'clerk')
    const list = (await clerk('GET', '/api/calling-kanban/proposals?limit=200')).json()
    const seen = new Set(list.map((p: { kind: string; stage: string }) => `${p.kind}:${p.stage}`))
    for (const stage of [
      'sp_approval',
      'hc_approval',
      'interview',
      'sustain',
      'set_apart',
      'record',
      'done',
      'declined',
    ])
      assert.ok(seen.has(`call:${stage}`), `a call at ${stage}`)
    for (const stage of ['interview', 'done']) assert.ok(seen.has(`release:${stage}`), `a release at ${stage}`)
    for (const stage of ['sp_approval', 'interview', 'ordain']) assert.ok(seen.has(`ordination:${stage}`), stage)
  })

  it("leaves each role's work waiting: a vote and an interview, a presentation, booked Sundays", async () => {
    const president = await roleOf(demo, 'president')
    const mine = (await president('GET', '/api/actions')).json().items
    assert.ok(
      mine.some(
        (i: { kind: string; proposal: { stage: string } }) => i.kind === 'vote' && i.proposal.stage === 'sp_approval',
      ),
    )
    assert.ok(mine.some((i: { kind: string }) => i.kind === 'interview'))
    const booked = (await president('GET', '/api/appointments')).json()
    assert.ok(booked.filter((a: { interviewer_id: number }) => a.interviewer_id).length >= 2)
    const unread = Number((await president('GET', '/api/notifications')).headers['x-unread-count'])
    assert.ok(unread > 0)

    const councilor = await roleOf(demo, 'high_councilor')
    const his = (await councilor('GET', '/api/actions')).json().items
    assert.ok(
      his.some(
        (i: { kind: string; proposal: { stage: string } }) => i.kind === 'vote' && i.proposal.stage === 'hc_approval',
      ),
    )
    assert.ok(his.some((i: { kind: string }) => i.kind === 'interview'))

    const bishop = await roleOf(demo, 'bishop')
    const me = (await bishop('GET', '/api/auth/me')).json()
    const wardId = me.callings.find((c: { key: string }) => c.key === 'bishop').slot_id
    const toPresent = (await bishop('GET', `/api/sustainings/${wardId}`)).json().items
    assert.ok(toPresent.length >= 1)

    const year = new Date().getUTCFullYear()
    const plan = [
      (await president('GET', `/api/sunday-plan/${year}`)).json(),
      (await president('GET', `/api/sunday-plan/${year + 1}`)).json(),
    ]
    const assigned = plan.flatMap((p) => p.sundays).filter((s: { assignments: unknown[] }) => s.assignments.length)
    assert.ok(assigned.length >= 4)
    const topics = (await president('GET', `/api/speaking/topics/${year}`)).json()
    assert.equal(topics.length, 12, 'a topic for every month of the year')
  })

  it('is deleted like any other stake, and its people can no longer sign in', async () => {
    cli(t, 'stake', 'delete', String(demo.stake_id), '--confirm', demo.stake_name)
    for (const a of demo.accounts) assert.equal((await signIn(a.email, demo.password)).status, 401)
  })
})
