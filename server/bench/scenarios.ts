// What the benchmark asks the service, through its HTTP API only: the pages a
// stake's leaders open every day, as the stake administrator (who sees every
// proposal, so every list and the board are at their largest).
import http from 'node:http'
import { send, type Answer, type Request, type Workload } from './load.ts'
import { ADMIN_EMAIL, PASSWORD, WARDS, type StakeSize } from './stake-data.ts'

export interface Session {
  baseUrl: string
  size: StakeSize
  auth: Record<string, string>
  /** Refresh cookies of live sessions, each presented once and replaced by the one its answer sets. */
  cookies: string[]
}

export interface Scenario {
  key: string
  name: string
  workload(session: Session): Workload
}

const loginBody = new URLSearchParams({ username: ADMIN_EMAIL, password: PASSWORD }).toString()
const loginRequest: Request = {
  method: 'POST',
  path: '/api/auth/login',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: loginBody,
}

const refreshCookie = (answer: Answer) =>
  ([] as string[])
    .concat(answer.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('refresh_token='))
    ?.split(';')[0]

/** Signs the administrator in, and opens `sessions` more sessions for the refresh run. */
export async function openSession(baseUrl: string, size: StakeSize, sessions: number): Promise<Session> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 })
  const login = async () => {
    const answer = await send(agent, baseUrl, loginRequest)
    if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.body}`)
    return { token: (JSON.parse(answer.body) as { access_token: string }).access_token, cookie: refreshCookie(answer)! }
  }
  const { token } = await login()
  const cookies: string[] = []
  // Two at a time: login is one argon2id verification, and this machine has two cores.
  for (let i = 0; i < sessions; i += 2) cookies.push(...(await Promise.all([login(), login()])).map((l) => l.cookie))
  agent.destroy()
  return { baseUrl, size, auth: { authorization: `Bearer ${token}` }, cookies }
}

/** Requests taken in turn from a list (different rows each time, as real traffic). */
function cycle(requests: Request[]): Workload {
  let i = 0
  return { next: () => requests[i++ % requests.length]! }
}

const get = (session: Session, path: string): Request => ({ method: 'GET', path, headers: session.auth })
const total = (size: StakeSize) => size.open + size.closed
const year = new Date().getUTCFullYear()
const SEARCHES = ['ander', 'smith', 'élodie', 'primary teacher', 'jens', 'organist', 'mül', 'nobody-called-this']

export const SCENARIOS: Scenario[] = [
  { key: 'me', name: 'GET /auth/me', workload: (s) => cycle([get(s, '/api/auth/me')]) },
  {
    key: 'refresh',
    name: 'GET /auth/refresh (rotation)',
    workload: (s) => ({
      next: () => ({ method: 'GET', path: '/api/auth/refresh', headers: { cookie: s.cookies.shift()! } }),
      onAnswer: (request, answer) => s.cookies.push(refreshCookie(answer) ?? request.headers!.cookie!),
    }),
  },
  {
    key: 'detail',
    name: 'GET /proposals/{id}',
    // Ids spread over the whole table, old closed ones and open ones alike.
    workload: (s) =>
      cycle(
        Array.from({ length: 500 }, (_, k) =>
          get(s, `/api/calling-kanban/proposals/${1 + ((k * 7919) % total(s.size))}`),
        ),
      ),
  },
  {
    key: 'calendar',
    name: `GET /speaking/calendar/${year}`,
    workload: (s) => cycle([get(s, `/api/speaking/calendar/${year}`)]),
  },
  {
    key: 'stage-open',
    name: 'GET /proposals?stage=hc_approval',
    workload: (s) => cycle([get(s, '/api/calling-kanban/proposals?stage=hc_approval')]),
  },
  {
    key: 'stage-done',
    name: 'GET /proposals?stage=done',
    workload: (s) => cycle([get(s, '/api/calling-kanban/proposals?stage=done')]),
  },
  {
    key: 'ward',
    name: 'GET /proposals?ward_id=N',
    workload: (s) =>
      cycle(Array.from({ length: WARDS }, (_, w) => get(s, `/api/calling-kanban/proposals?ward_id=${w + 1}`))),
  },
  {
    key: 'search',
    name: 'GET /proposals?q=… (all proposals)',
    workload: (s) => cycle(SEARCHES.map((q) => get(s, `/api/calling-kanban/proposals?q=${encodeURIComponent(q)}`))),
  },
  { key: 'users', name: 'GET /users (first page)', workload: (s) => cycle([get(s, '/api/users')]) },
  { key: 'callings', name: 'GET /callings (first page)', workload: (s) => cycle([get(s, '/api/callings')]) },
  { key: 'board', name: 'GET /board (administrator)', workload: (s) => cycle([get(s, '/api/calling-kanban/board')]) },
  { key: 'login', name: 'POST /auth/login', workload: () => cycle([loginRequest]) },
]

/** The routes whose cost must not grow with the number of proposals (compared on the small stake). */
export const GROWTH_KEYS = ['me', 'detail', 'calendar', 'stage-open', 'stage-done', 'ward', 'board']
