import crypto from 'node:crypto'
import { Algorithm, hash, verify } from '@node-rs/argon2'
import { dictionary } from '@zxcvbn-ts/language-common'
import type { Hasher } from '../../context.ts'
import { invalid } from '../../errors.ts'

export interface Argon2Params {
  memoryCost: number
  timeCost: number
  parallelism: number
}

/** argon2id with explicit cost parameters (production values come from config). */
export class PasswordHasher implements Hasher {
  private dummy: Promise<string> | null = null

  constructor(private readonly params: Argon2Params) {}

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: Algorithm.Argon2id, ...this.params })
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password)
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
const COMMON = new Set(
  (dictionary['passwords-common'] as string[])
    .filter((p) => p.length >= 8)
    .slice(0, 10000)
    .map((p) => p.toLowerCase()),
)

export const commonPasswordCount = (): number => COMMON.size

export const randomPassword = (): string => crypto.randomBytes(12).toString('base64url')

/** New-password rules (docs/api-reference.md §3): 8–256 characters, not a common password. */
export function checkNewPassword(password: string, field = 'new_password'): void {
  const loc = ['body', field]
  if (password.length < 8) throw invalid(loc, 'Password must be at least 8 characters', 'string_too_short')
  if (password.length > 256) throw invalid(loc, 'Password must be at most 256 characters', 'string_too_long')
  if (COMMON.has(password.toLowerCase())) {
    throw invalid(loc, 'This password is too common; choose one that is harder to guess', 'password_too_common')
  }
}
