// Two references: Fastify with no plugins, hooks, auth or database.
// - GET /health answers the bare server's small fixed JSON: how much of the
//   gap to the bare server is the framework itself.
// - GET /me does only what the contract makes every authenticated request do
//   (one indexed SQLite read of the session and its user, in WAL mode like the
//   service) and answers the bytes PUT to /__payload/me (the service's own
//   /auth/me): the most this stack could reach on that route, with no
//   logging, security headers, validation or token check around it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import BetterSqlite3 from 'better-sqlite3'
import { openSqlite } from '../src/db/database.ts'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-plain-'))
const database = openSqlite(path.join(dir, 'plain.db'))
database.exec(`
  CREATE TABLE users (id INTEGER PRIMARY KEY, active INTEGER NOT NULL);
  CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id), expires_at TEXT NOT NULL);
  INSERT INTO users VALUES (1, 1);
  INSERT INTO sessions VALUES ('bench-session', 1, '2100-01-01T00:00:00.000Z');
`)
const sessionCheck: BetterSqlite3.Statement = database
  .prepare(`SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.user_id = ? AND s.expires_at > ? AND u.active = 1`)
  .pluck()

let me: Buffer = Buffer.from('{}')
const app = Fastify()
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
app.get('/health', async () => ({ status: 'ok' }))
app.put('/__payload/me', async (request) => {
  me = request.body as Buffer
  return null
})
app.get('/me', (_request, reply) => {
  if (sessionCheck.get('bench-session', 1, new Date().toISOString()) === undefined) return reply.code(401).send({ detail: 'Not authenticated' })
  return reply.type('application/json; charset=utf-8').send(me)
})
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
const address = app.server.address()
console.log(`BARE_LISTENING ${typeof address === 'object' && address ? address.port : ''}`)
process.on('SIGTERM', () =>
  void app.close().then(() => {
    database.close()
    fs.rmSync(dir, { recursive: true, force: true })
    process.exit(0)
  }),
)
