import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import os from 'node:os'
import { Algorithm, hash, verify } from '@node-rs/argon2'
import type { Hasher } from '../../context.ts'
import { invalid } from '../../errors.ts'

export interface Argon2Params {
  memoryCost: number
  timeCost: number
  parallelism: number
}

/**
 * How many argon2 computations run at once. Each holds its memory cost
 * (19 MiB in production) for its whole run, and more at once than there are
 * cores finish no sooner: a burst of sign-ins waits its turn instead of
 * growing the process (docs/performance.md).
 */
const HASH_CONCURRENCY = Math.max(1, Math.min(4, os.availableParallelism()))

/** argon2id with explicit cost parameters (production values come from config). */
export class PasswordHasher implements Hasher {
  private dummy: Promise<string> | null = null
  private running = 0
  private readonly queue: (() => void)[] = []

  constructor(
    private readonly params: Argon2Params,
    private readonly concurrency = HASH_CONCURRENCY,
  ) {}

  /** Computations running and waiting for a turn. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length }
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    // A finished computation hands its turn straight to the next in line.
    if (this.running < this.concurrency) this.running++
    else await new Promise<void>((resolve) => this.queue.push(resolve))
    try {
      return await work()
    } finally {
      const next = this.queue.shift()
      if (next) next()
      else this.running--
    }
  }

  hash(password: string): Promise<string> {
    return this.bounded(() => hash(password, { algorithm: Algorithm.Argon2id, ...this.params }))
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await this.bounded(() => verify(passwordHash, password))
    } catch {
      return false
    }
  }

  /**
   * Spends the same time as a real verification, for logins with an unknown
   * email, so timing does not tell whether an account exists (docs/api-reference.md §3).
   */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash(crypto.randomBytes(16).toString('hex'))
    await this.verify(await this.dummy, password)
    return false
  }
}

// The 10,000 most common passwords that are long enough to pass the length
// rule (shorter ones are refused by it anyway), from zxcvbn's frequency list.
// Read on the first new password, not at start: the list costs ~15 MB of
// memory that a server answering reads never needs (docs/performance.md).
let common: Set<string> | null = null
function commonPasswords(): Set<string> {
  if (!common) {
    const list = createRequire(import.meta.url)('@zxcvbn-ts/language-common/dist/passwords.json.cjs') as string[]
    common = new Set(
      list
        .filter((p) => p.length >= 8)
        .slice(0, 10000)
        .map((p) => p.toLowerCase()),
    )
  }
  return common
}

export const commonPasswordCount = (): number => commonPasswords().size

export const randomPassword = (): string => crypto.randomBytes(12).toString('base64url')

/** New-password rules (docs/api-reference.md §3): 8–256 characters, not a common password. */
export function checkNewPassword(password: string, field = 'new_password'): void {
  const loc = ['body', field]
  if (password.length < 8) throw invalid(loc, 'Password must be at least 8 characters', 'string_too_short')
  if (password.length > 256) throw invalid(loc, 'Password must be at most 256 characters', 'string_too_long')
  if (commonPasswords().has(password.toLowerCase())) {
    throw invalid(loc, 'This password is too common; choose one that is harder to guess', 'password_too_common')
  }
}
