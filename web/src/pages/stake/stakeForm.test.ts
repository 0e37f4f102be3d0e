/** The stake pages' checks and messages (run with `npm run test:unit -w web`). */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import type { Me } from '../../api/types.ts'
import { canAdministerStake } from '../../auth/roles.ts'
import {
  checkSignup,
  checkStake,
  emptySignup,
  lowersSeats,
  signupRefusal,
  stakeValues,
  timeZoneLabel,
  timeZoneOptions,
  type SignupValues,
} from './stakeForm.ts'

const stake = {
  id: 1,
  name: 'Maple Stake',
  slug: 'maple-stake',
  timezone: 'America/Denver',
  language: 'en' as const,
  sp_approvals_required: 3,
  hc_approvals_required: 7,
  high_council_seats: 12,
}

const english = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '../../i18n/locales/en/stake.json'), 'utf8'),
) as Record<string, Record<string, string>>
const hasText = (key: string) => {
  const [group, name] = key.split('.') as [string, string]
  return typeof english[group]?.[name] === 'string'
}

describe('stake settings form', () => {
  it('turns the stake into the form and back into the same body', () => {
    const result = checkStake(stakeValues(stake))
    assert.ok('body' in result)
    const { id: _id, ...body } = stake
    assert.deepEqual(result.body, body)
  })

  it('trims the name and refuses an empty or too long one', () => {
    const ok = checkStake({ ...stakeValues(stake), name: '  Oak Stake ' })
    assert.ok('body' in ok && ok.body.name === 'Oak Stake')
    for (const [name, key] of [
      ['   ', 'settings.enterName'],
      ['x'.repeat(101), 'settings.nameTooLong'],
    ]) {
      const r = checkStake({ ...stakeValues(stake), name: name! })
      assert.ok('errors' in r)
      assert.equal(r.errors.name, key)
    }
  })

  it('takes a public page address of lowercase letters, digits and single hyphens, starting with a letter', () => {
    const ok = checkStake({ ...stakeValues(stake), slug: ' oak-stake-2 ' })
    assert.ok('body' in ok && ok.body.slug === 'oak-stake-2')
    for (const [slug, key] of [
      ['', 'settings.enterSlug'],
      ['o', 'settings.slugLength'],
      ['o'.repeat(61), 'settings.slugLength'],
      ['Oak-Stake', 'settings.slugFormat'],
      ['oak stake', 'settings.slugFormat'],
      ['oak--stake', 'settings.slugFormat'],
      ['-oak', 'settings.slugFormat'],
      ['2oak', 'settings.slugFormat'],
    ] as const) {
      const r = checkStake({ ...stakeValues(stake), slug })
      assert.ok('errors' in r, slug)
      assert.equal(r.errors.slug, key, slug)
      assert.ok(hasText(key), `${key} has an English text`)
    }
  })

  it('takes only whole numbers within the contract limits', () => {
    const bad: [keyof ReturnType<typeof stakeValues>, string][] = [
      ['sp_approvals_required', '0'],
      ['sp_approvals_required', '4'],
      ['sp_approvals_required', '2.5'],
      ['hc_approvals_required', ''],
      ['hc_approvals_required', '-1'],
      ['high_council_seats', '101'],
      ['high_council_seats', '1e1'],
    ]
    for (const [field, value] of bad) {
      const r = checkStake({ ...stakeValues(stake), [field]: value })
      assert.ok('errors' in r, `${field}=${value}`)
      assert.equal(r.errors[field], 'settings.wholeNumber', `${field}=${value}`)
    }
  })

  it('refuses more high-council approvals than seats', () => {
    const r = checkStake({ ...stakeValues(stake), hc_approvals_required: '9', high_council_seats: '8' })
    assert.ok('errors' in r)
    assert.equal(r.errors.hc_approvals_required, 'settings.moreThanSeats')
    const equal = checkStake({ ...stakeValues(stake), hc_approvals_required: '8', high_council_seats: '8' })
    assert.ok('body' in equal)
  })

  it('asks for confirmation only when the seats go down', () => {
    const { id: _id, ...body } = stake
    assert.equal(lowersSeats(stake, { ...body, high_council_seats: 11 }), true)
    assert.equal(lowersSeats(stake, { ...body, high_council_seats: 12 }), false)
    assert.equal(lowersSeats(stake, { ...body, high_council_seats: 15 }), false)
  })

  it("lists the stake's time zone even when the browser leaves it out (UTC)", () => {
    const known = ['America/Denver', 'Europe/Madrid']
    assert.deepEqual(timeZoneOptions('UTC', known), ['UTC', ...known])
    assert.deepEqual(timeZoneOptions('Europe/Madrid', known), known)
    assert.equal(timeZoneLabel('America/Argentina/Buenos_Aires'), 'America / Argentina / Buenos Aires')
    assert.ok(timeZoneOptions('UTC').length > 100, 'the runtime lists its time zones')
  })
})

describe('create-your-stake form', () => {
  const filled: SignupValues = {
    code: ' abc-123 ',
    stake_name: ' Oak Stake ',
    fname: ' Ana ',
    lname: ' Ruiz ',
    email: ' ana@example.com ',
    password: ' long enough ',
    confirm: ' long enough ',
  }

  it('sends trimmed text and the password exactly as typed', () => {
    const r = checkSignup(filled)
    assert.ok('body' in r)
    assert.deepEqual(r.body, {
      code: 'abc-123',
      stake_name: 'Oak Stake',
      fname: 'Ana',
      lname: 'Ruiz',
      email: 'ana@example.com',
      password: ' long enough ',
    })
  })

  it('names every missing field', () => {
    const r = checkSignup(emptySignup)
    assert.ok('errors' in r)
    assert.deepEqual(Object.keys(r.errors).sort(), ['code', 'email', 'fname', 'lname', 'password', 'stake_name'])
  })

  it('checks the email, the password length and the repeated password', () => {
    const email = checkSignup({ ...filled, email: 'ana.example.com' })
    assert.ok('errors' in email && email.errors.email === 'create.invalidEmail')
    const short = checkSignup({ ...filled, password: 'short', confirm: 'short' })
    assert.ok('errors' in short && short.errors.password === 'create.tooShort')
    const mismatch = checkSignup({ ...filled, confirm: 'something else' })
    assert.ok('errors' in mismatch && mismatch.errors.confirm === 'create.mismatch')
  })

  it("reads the server's refusals in plain words", () => {
    assert.deepEqual(signupRefusal(404, 'not_found'), { kind: 'closed' })
    assert.deepEqual(signupRefusal(403, 'forbidden'), { kind: 'field', field: 'code', key: 'create.badCode' })
    assert.deepEqual(signupRefusal(409, 'duplicate_email'), {
      kind: 'field',
      field: 'email',
      key: 'create.emailTaken',
    })
    assert.deepEqual(signupRefusal(403, 'cross_site'), { kind: 'other' })
    assert.deepEqual(signupRefusal(422, undefined), { kind: 'other' })
    assert.deepEqual(signupRefusal(429, 'too_many_attempts'), { kind: 'other' })
  })

  it('every message key it returns has an English text', () => {
    const keys = new Set<string>()
    for (const r of [checkSignup(emptySignup), checkSignup({ ...filled, email: 'x' })]) {
      if ('errors' in r) Object.values(r.errors).forEach((k) => keys.add(k!))
    }
    for (const v of [{ name: '' }, { name: 'x'.repeat(101), sp_approvals_required: '9', timezone: '' }]) {
      const r = checkStake({ ...stakeValues(stake), ...v })
      if ('errors' in r) Object.values(r.errors).forEach((k) => keys.add(k!))
    }
    keys.add('settings.moreThanSeats')
    for (const [status, code] of [
      [403, 'forbidden'],
      [409, 'duplicate_email'],
    ] as const) {
      const r = signupRefusal(status, code)
      if (r.kind === 'field') keys.add(r.key)
    }
    assert.ok(keys.size >= 12)
    assert.deepEqual(
      [...keys].filter((k) => !hasText(k)),
      [],
    )
  })
})

describe('who sees the stake settings', () => {
  const me = (permissions: string[]) => ({ permissions }) as unknown as Me
  it('only a holder of all seven permissions', () => {
    const all = [
      'users.manage',
      'callings.manage',
      'wards.manage',
      'speaking.manage',
      'proposals.submit',
      'proposals.view',
      'proposals.manage',
    ]
    assert.equal(canAdministerStake(me(all)), true)
    for (const missing of all) assert.equal(canAdministerStake(me(all.filter((p) => p !== missing))), false, missing)
    assert.equal(canAdministerStake(null), false)
  })
})
