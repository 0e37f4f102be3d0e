import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { expect, type APIRequestContext } from '@playwright/test'
import { unique } from './api'

const root = path.join(__dirname, '..')

/** `stake signup-code --json` against the e2e server's database (playwright.config.ts). */
export function signupCode(): string {
  const out = execFileSync('npm', ['run', '--silent', 'cli', '--', 'stake', 'signup-code', '--json'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `sqlite:${process.env.E2E_DB}`, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  })
  const line = out
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.trim().startsWith('{'))
  if (!line) throw new Error(`stake signup-code printed no JSON: ${out}`)
  return (JSON.parse(line) as { code: string }).code
}

/**
 * A client address of its own for one signup flow (the e2e server trusts
 * `X-Forwarded-For` from 127.0.0.1): the per-address signup limit then counts
 * this flow apart from every other spec's.
 */
export function clientAddress(): Record<string, string> {
  const byte = () => 1 + Math.floor(Math.random() * 254)
  return { 'X-Forwarded-For': `10.${byte()}.${byte()}.${byte()}` }
}

/** A new stake and its administrator, as a signup makes them (a code from the operator's CLI). */
export async function newStake(request: APIRequestContext) {
  const admin = { email: `${unique('setup')}@example.com`, password: 'Setup-Admin-Pass-4411' }
  const res = await request.post('/api/stakes', {
    headers: clientAddress(),
    data: { code: signupCode(), stake_name: unique('Unnamed '), fname: 'Ines', lname: 'Setup', ...admin },
  })
  expect(res.status()).toBe(201)
  return admin
}
