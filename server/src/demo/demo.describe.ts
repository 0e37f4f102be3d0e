import type { DemoResult } from './demo.seed.ts'

// No runtime imports: scripts/demo.mjs imports the compiled file from plain node.

const ROLE_NAMES: Record<DemoResult['accounts'][number]['role'], string> = {
  president: 'Stake president',
  clerk: 'Stake clerk (administrator)',
  high_councilor: 'High councilor',
  bishop: 'Bishop',
}

/** The sign-ins, as `npm run demo` and `cli demo` print them. */
export function describeDemo(result: DemoResult): string {
  const width = Math.max(...result.accounts.map((a) => ROLE_NAMES[a.role].length))
  return [
    `Demo stake ${result.stake_id} "${result.stake_name}": invented people, wards, proposals, interviews and Sundays.`,
    'Sign in as any of them with the password below (every demo account has it):',
    ...result.accounts.map((a) => `  ${ROLE_NAMES[a.role].padEnd(width)}  ${a.email}  (${a.name})`),
    `  Password: ${result.password}`,
    `Delete it like any stake: npm run cli -- stake delete ${result.stake_id} --confirm "${result.stake_name}"`,
  ].join('\n')
}
