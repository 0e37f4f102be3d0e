// The cost of notifying (issue 15): a vote that notifies 15 people against
// the same vote notifying nobody, and the mail worker draining 1,000 queued
// messages into a local SMTP server. Fresh small databases each run.
//
// The vote: a presidency member's approval with SP_APPROVALS_REQUIRED=1
// moves his own proposal to hc_approval. With 15 high councilors seated it
// writes 15 `vote_needed` notifications and 15 outbox rows in the vote's
// transaction (mail on, immediate, delivered meanwhile by the worker); with
// the seats empty the same code finds nobody to tell ("notifications off").
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import type { Dialect } from '../src/db/database.ts'
import { createDatabase } from '../src/database.ts'
import { migrate } from '../src/db/migrate.ts'
import { PasswordHasher, type Argon2Params } from '../src/modules/auth/passwords.ts'
import { syncHighCouncilSeats } from '../src/modules/callings/callings.repository.ts'
import { searchKeyOf } from '../src/modules/proposals/proposals.repository.ts'
import { insertUser } from '../src/modules/users/users.repository.ts'
import { measure, send, type Stats, type Workload } from './load.ts'
import { startServer } from './server-process.ts'
import { DATA_DIR, PG_URL, STAKE_ONE } from './stake-store.ts'
import http from 'node:http'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const VOTERS = 15
const PROPOSALS = 12_000
const QUEUED = 1000
const PASSWORD = 'bench-notify-password-1'

export interface NotifyResult {
  dialect: Dialect
  on: { c1: Stats; c20: Stats }
  off: { c1: Stats; c20: Stats }
  /** Seconds from the server being ready until 1,000 queued messages were received. */
  drainSeconds: number
}

/** The SMTP sink (smtp-sink.ts) as a child process: its URL and how many messages it accepted. */
async function startSink() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./smtp-sink.ts', import.meta.url))],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  let received = 0
  let buffer = ''
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the SMTP sink exited')))
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop()!
      for (const line of lines) {
        if (line === 'M') received++
        else if (line.startsWith('PORT ')) resolve(Number(line.slice(5)))
      }
    })
  })
  return {
    url: `smtp://bench:bench@127.0.0.1:${port}`,
    received: () => received,
    reset: () => (received = 0),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
type Sink = Awaited<ReturnType<typeof startSink>>

/** Waits until the server's worker has sent everything queued (so one run's mail does not load the next). */
async function drained(url: string): Promise<void> {
  const { db, close } = createDatabase(url, STAKE_ONE)
  try {
    for (;;) {
      const row = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', 'in', ['pending', 'sending'])
        .executeTakeFirstOrThrow()
      if (Number(row.n) === 0) return
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  } finally {
    await close()
  }
}

async function freshUrl(dialect: Dialect, name: string): Promise<string> {
  if (dialect === 'sqlite') {
    const file = path.join(DATA_DIR, `${name}.sqlite`)
    fs.mkdirSync(DATA_DIR, { recursive: true })
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true })
    return `sqlite:${file}`
  }
  const db = `stake_bench_${name.replace(/-/g, '_')}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${db} with (force)`)
    await admin.query(`create database ${db}`)
  } finally {
    await admin.end()
  }
  const url = new URL(PG_URL)
  url.pathname = `/${db}`
  return url.toString()
}

/** A ward, the president (who submitted every proposal, all at sp_approval) and `voters` seated high councilors. */
async function seed(url: string, voters: number, argon2: Argon2Params): Promise<string> {
  const { db, dialect, close } = createDatabase(url, STAKE_ONE)
  try {
    await migrate(db)
    await syncHighCouncilSeats(db, dialect, VOTERS)
    const now = new Date().toISOString()
    const password_hash = await new PasswordHasher(argon2).hash(PASSWORD)
    const user = (email: string) =>
      insertUser(db, {
        email,
        fname: 'Bench',
        lname: email.split('@')[0]!,
        password_hash,
        force_password_reset: false,
        now,
      })
    const president = await user('president@bench.example.org')
    const seat = async (key: string, userId: number) => {
      const calling = await db.selectFrom('callings').select('id').where('key', '=', key).executeTakeFirstOrThrow()
      const slot = await db
        .selectFrom('calling_slots')
        .select('slot_id')
        .where('calling_id', '=', calling.id)
        .where('user_id', 'is', null)
        .orderBy('slot_id')
        .executeTakeFirstOrThrow()
      await db
        .updateTable('calling_slots')
        .set({ user_id: userId, filled_at: now })
        .where('calling_id', '=', calling.id)
        .where('slot_id', '=', slot.slot_id)
        .execute()
    }
    await seat('stake_president', president.id)
    for (let i = 0; i < voters; i++) await seat('high_councilor', (await user(`hc${i}@bench.example.org`)).id)
    const ward = await db
      .insertInto('wards')
      .values({ name: 'Bench Ward', name_key: 'bench ward', start_time: 600, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (let start = 0; start < PROPOSALS; start += 500) {
      await db
        .insertInto('proposals')
        .values(
          Array.from({ length: 500 }, (_, k) => {
            const fields = {
              fname: `Person${start + k}`,
              lname: 'Bench',
              spouse_name: null,
              proposed_calling: 'Primary teacher',
              ward_id: ward.id,
              submitter: president.id,
            }
            return {
              ...fields,
              is_release: false,
              stage: 'sp_approval' as const,
              search_key: searchKeyOf(fields),
              stage_changed_at: now,
              submitted_at: now,
              updated_at: now,
            }
          }),
        )
        .execute()
    }
    return 'president@bench.example.org'
  } finally {
    await close()
  }
}

async function token(baseUrl: string, email: string): Promise<string> {
  const agent = new http.Agent()
  const answer = await send(agent, baseUrl, {
    method: 'POST',
    path: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: PASSWORD }).toString(),
  })
  agent.destroy()
  if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.body}`)
  return (JSON.parse(answer.body) as { access_token: string }).access_token
}

/**
 * Votes at c=1 and c=20, each on a proposal not voted on yet (201 each):
 * both servers run side by side and are measured in turn (nobody, 15
 * people, at each concurrency), each run after the previous run's mail went
 * out, so a change in the machine's load hits both alike.
 */
async function votes(onUrl: string, offUrl: string, sink: Sink, seconds: number, warmup: number) {
  const env = { SMTP_URL: sink.url, SP_APPROVALS_REQUIRED: '1', HIGH_COUNCIL_SEATS: String(VOTERS) }
  const servers = { on: await startServer(onUrl, env), off: await startServer(offUrl, env) }
  try {
    const workloads = {} as Record<'on' | 'off', Workload>
    for (const key of ['on', 'off'] as const) {
      const auth = { authorization: `Bearer ${await token(servers[key].baseUrl, 'president@bench.example.org')}` }
      let next = 1
      workloads[key] = {
        expect: 201,
        next: () => {
          if (next > PROPOSALS) throw new Error('the vote bench ran out of proposals: raise PROPOSALS')
          return {
            method: 'POST',
            path: `/api/calling-kanban/proposals/${next++}/approvals?approved=true`,
            headers: auth,
          }
        },
      }
    }
    const measured = { on: {} as { c1: Stats; c20: Stats }, off: {} as { c1: Stats; c20: Stats } }
    for (const c of [1, 20] as const) {
      for (const key of ['off', 'on'] as const) {
        await drained(key === 'on' ? onUrl : offUrl)
        measured[key][c === 1 ? 'c1' : 'c20'] = await measure(servers[key].baseUrl, workloads[key], c, seconds, warmup)
      }
    }
    return measured
  } finally {
    await servers.on.stop()
    await servers.off.stop()
  }
}

/** 1,000 messages queued before the server starts; seconds from ready until the SMTP server has them all. */
async function drain(dialect: Dialect, sink: Sink): Promise<number> {
  const url = await freshUrl(dialect, 'notify-drain')
  const { db, close } = createDatabase(url, STAKE_ONE)
  try {
    await migrate(db)
    const now = new Date().toISOString()
    await db
      .insertInto('mail_outbox')
      .values(
        Array.from({ length: QUEUED }, (_, i) => ({
          user_id: null,
          to_address: `voter${i}@bench.example.org`,
          kind: 'reminder',
          subject: `Bench message ${i}`,
          text_body: `Reminder ${i}\n\nhttp://127.0.0.1/proposals/${i}`,
          html_body: `<p>Reminder ${i}</p>`,
          next_attempt_at: now,
          claimed_until: null,
          last_error: null,
          created_at: now,
          sent_at: null,
        })),
      )
      .execute()
  } finally {
    await close()
  }
  sink.reset()
  const server = await startServer(url, { SMTP_URL: sink.url })
  const started = performance.now()
  try {
    while (sink.received() < QUEUED) {
      if (performance.now() - started > 120_000) throw new Error(`only ${sink.received()} delivered in 120 s`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return (performance.now() - started) / 1000
  } finally {
    await server.stop()
  }
}

export async function measureNotifications(
  dialect: Dialect,
  argon2: Argon2Params,
  seconds: number,
  warmup: number,
  log: (line: string) => void,
): Promise<NotifyResult> {
  const sink = await startSink()
  try {
    const onUrl = await freshUrl(dialect, 'notify-on')
    const offUrl = await freshUrl(dialect, 'notify-off')
    await seed(onUrl, VOTERS, argon2)
    await seed(offUrl, 0, argon2)
    const { on, off } = await votes(onUrl, offUrl, sink, seconds, warmup)
    for (const [name, r] of [
      ['notifying nobody', off],
      [`notifying ${VOTERS}`, on],
    ] as const) {
      log(`  vote ${name}: c=1 p99 ${r.c1.p99.toFixed(2)} ms, c=20 p99 ${r.c20.p99.toFixed(2)} ms`)
    }
    const drainSeconds = await drain(dialect, sink)
    log(`  worker: ${QUEUED} queued messages delivered in ${drainSeconds.toFixed(1)} s`)
    return { dialect, on, off, drainSeconds }
  } finally {
    await sink.stop()
  }
}

/** The figures as Markdown, with the targets of issue 15. */
export function notifyFigures(results: NotifyResult[]): string {
  const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1))
  const rows = results.flatMap((r) =>
    (['c1', 'c20'] as const).map((c) => {
      const ratio = r.on[c].p99 / r.off[c].p99
      return `| ${r.dialect} | ${c === 'c1' ? 1 : 20} | ${ms(r.off[c].p50)} / ${ms(r.off[c].p99)} | ${ms(r.on[c].p50)} / ${ms(r.on[c].p99)} | ${ratio.toFixed(2)}× | ${ratio <= 1.5 ? 'met' : 'NOT met'} |`
    }),
  )
  const drains = results.map(
    (r) => `| ${r.dialect} | ${r.drainSeconds.toFixed(1)} s | ${r.drainSeconds <= 30 ? 'met' : 'NOT met'} |`,
  )
  return [
    `### Notifications: a vote notifying ${VOTERS} people vs nobody (p50 / p99 ms; target p99 ratio ≤ 1.5×)`,
    '',
    '| database | c | nobody | 15 people | p99 ratio | target |',
    '| -------- | - | ------ | --------- | --------- | ------ |',
    ...rows,
    '',
    `Mail worker: ${QUEUED} queued messages to a local SMTP server (target ≤ 30 s)`,
    '',
    '| database | time | target |',
    '| -------- | ---- | ------ |',
    ...drains,
  ].join('\n')
}
