import type { ImportProblem, ImportProblemCode } from '../../api/types'

/**
 * Each problem of a preview as a sentence in the client's language. The
 * server's message is English; what the client takes from it is only the
 * report's own cell it quotes ("14 Sep 2025" in a name column), which is data,
 * not language. A code the client does not know yet gets a general sentence.
 */
const QUOTES: Record<ImportProblemCode, boolean> = {
  ambiguous_person: false,
  forbidden_seat: false,
  missing_name: false,
  invalid_name: true,
  invalid_email: true,
  email_unavailable: false,
  email_differs: false,
  invalid_date: true,
  invalid_calling: false,
  invalid_phone: false,
  inactive_user: false,
  no_free_seat: false,
  needs_ward: false,
  duplicate_seat: false,
  forbidden_user: false,
  not_a_name: true,
  count_mismatch: true,
  same_name: false,
  needs_ward_name: false,
}

const isKnown = (code: string): code is ImportProblemCode => Object.hasOwn(QUOTES, code)

/** The translation key and values of a problem's sentence (namespace `imports`). */
export function problemSentence(problem: Pick<ImportProblem, 'code' | 'message'>): {
  key: `problems.${ImportProblemCode}` | 'problems.unknown'
  value?: string
} {
  if (!isKnown(problem.code)) return { key: 'problems.unknown' }
  if (!QUOTES[problem.code]) return { key: `problems.${problem.code}` }
  const quoted = /"([^"]+)"/.exec(problem.message)?.[1]
  return quoted ? { key: `problems.${problem.code}`, value: quoted } : { key: 'problems.unknown' }
}
