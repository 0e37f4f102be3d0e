import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import webPush from 'web-push'
import { ConfigError, parseConfig } from './config.ts'

describe('configuration from the environment', () => {
  it('has the contract’s defaults', () => {
    const c = parseConfig({})
    assert.equal(c.port, 8000)
    assert.equal(c.host, '127.0.0.1')
    assert.equal(c.databaseUrl, 'sqlite:./data/stake.db')
    assert.equal(c.jwtSecret, null)
    assert.equal(c.adminEmail, 'admin@example.com')
    assert.equal(c.cookieSecure, false, 'plain http on localhost')
    assert.deepEqual(c.corsOrigins, [])
    assert.equal(c.trustProxy, false)
    assert.equal(c.accessTokenTtlSeconds, 900)
    assert.equal(c.spApprovalsRequired, 2)
    assert.equal(c.hcApprovalsRequired, 3)
    assert.equal(c.highCouncilSeats, 12)
    assert.equal(c.logLevel, 'info')
  })

  it('defaults COOKIE_SECURE to true when serving beyond localhost', () => {
    assert.equal(parseConfig({ HOST: '0.0.0.0' }).cookieSecure, true)
    assert.equal(parseConfig({ HOST: '0.0.0.0', COOKIE_SECURE: 'false' }).cookieSecure, false)
  })

  it('reads every variable of the contract’s table', () => {
    const c = parseConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@h/db',
      JWT_SECRET: 'x'.repeat(32),
      ADMIN_EMAIL: 'root@example.org',
      INITIAL_ADMIN_PASSWORD: 'first-password',
      COOKIE_SECURE: 'true',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '2',
      ACCESS_TOKEN_TTL_SECONDS: '60',
      SP_APPROVALS_REQUIRED: '3',
      HC_APPROVALS_REQUIRED: '7',
      HIGH_COUNCIL_SEATS: '9',
      LOG_LEVEL: 'debug',
    })
    assert.deepEqual(
      [c.port, c.host, c.databaseUrl, c.adminEmail, c.initialAdminPassword, c.cookieSecure, c.trustProxy],
      [9000, '0.0.0.0', 'postgres://u@h/db', 'root@example.org', 'first-password', true, 2],
    )
    assert.deepEqual(c.corsOrigins, ['https://a.example', 'https://b.example'])
    assert.deepEqual(
      [c.accessTokenTtlSeconds, c.spApprovalsRequired, c.hcApprovalsRequired, c.highCouncilSeats, c.logLevel],
      [60, 3, 7, 9, 'debug'],
    )
  })

  it('refuses bad values with a one-line message naming the variable', () => {
    const bad: Record<string, string>[] = [
      { PORT: 'eighty' },
      { PORT: '70000' },
      { DATABASE_URL: 'mysql://x' },
      { JWT_SECRET: 'short' },
      { ADMIN_EMAIL: 'nobody' },
      { INITIAL_ADMIN_PASSWORD: 'short' },
      { COOKIE_SECURE: 'maybe' },
      { CORS_ORIGINS: 'not an origin' },
      { ACCESS_TOKEN_TTL_SECONDS: '0' },
      { HIGH_COUNCIL_SEATS: '-1' },
      { LOG_LEVEL: 'loud' },
      { TRUST_PROXY: 'true' },
      { TRUST_PROXY: '11' },
      { TRUST_PROXY: '10.0.0.1/33' },
      { TRUST_PROXY: 'proxy.example' },
    ]
    for (const env of bad) {
      const name = Object.keys(env)[0]!
      assert.throws(
        () => parseConfig(env),
        (e: Error) => e instanceof ConfigError && e.message.includes(name) && !e.message.includes('\n'),
        name,
      )
    }
  })

  it('reads METRICS_TOKEN: unset means no /metrics; a short or spaced token is refused without echoing it', () => {
    assert.equal(parseConfig({}).metricsToken, null)
    assert.equal(parseConfig({ METRICS_TOKEN: '' }).metricsToken, null)
    assert.equal(parseConfig({ METRICS_TOKEN: 'scrape-0123456789' }).metricsToken, 'scrape-0123456789')
    for (const token of ['hunter2-short', 'hunter2 with spaces in it', 'hunter2-é-0123456789', 'hunter2'.repeat(40)]) {
      assert.throws(
        () => parseConfig({ METRICS_TOKEN: token }),
        (e: Error) => e instanceof ConfigError && e.message.includes('METRICS_TOKEN') && !e.message.includes('hunter2'),
        token,
      )
    }
  })

  it('reads mail and the daily jobs (docs/api-reference.md §11): off by default, SMTP_URL never echoed when refused', () => {
    const d = parseConfig({})
    assert.deepEqual([d.smtpUrl, d.mailFrom, d.remindAfterHours, d.dailyHour], [null, 'admin@example.com', 72, 7])
    const c = parseConfig({
      SMTP_URL: 'smtps://user:p%40ss@mail.example.org:465',
      MAIL_FROM: 'Stake <stake@example.org>',
      REMIND_AFTER_HOURS: '24',
      DAILY_HOUR: '0',
    })
    assert.deepEqual(
      [c.smtpUrl, c.mailFrom, c.remindAfterHours, c.dailyHour],
      ['smtps://user:p%40ss@mail.example.org:465', 'Stake <stake@example.org>', 24, 0],
    )
    for (const env of [
      { SMTP_URL: 'http://user:hunter2@mail.example.org' },
      { SMTP_URL: 'smtp://' },
      { MAIL_FROM: 'nobody' },
      { REMIND_AFTER_HOURS: '0' },
      { DAILY_HOUR: '24' },
    ]) {
      const name = Object.keys(env)[0]!
      assert.throws(
        () => parseConfig(env),
        (e: Error) => e instanceof ConfigError && e.message.includes(name) && !e.message.includes('hunter2'),
        name,
      )
    }
  })

  it('reads BACKUP_DIR and BACKUP_KEEP (README "Backups and restore"): ./data/backups and 14 by default', () => {
    const d = parseConfig({})
    assert.deepEqual([d.backupDir, d.backupKeep], ['./data/backups', 14])
    const c = parseConfig({ BACKUP_DIR: ' /var/backups/stake ', BACKUP_KEEP: '30' })
    assert.deepEqual([c.backupDir, c.backupKeep], ['/var/backups/stake', 30])
    for (const keep of ['0', '-1', 'many', '3651']) {
      assert.throws(
        () => parseConfig({ BACKUP_KEEP: keep }),
        (e: Error) => e instanceof ConfigError && e.message.includes('BACKUP_KEEP'),
        keep,
      )
    }
  })

  it('reads the timeouts (README "Operations"), with bounded defaults', () => {
    assert.deepEqual(parseConfig({}).timeouts, {
      connectTimeoutMs: 3000,
      statementTimeoutMs: 5000,
      sqliteBusyTimeoutMs: 2000,
      requestTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5000,
      shutdownDrainMs: 2000,
      shutdownTimeoutMs: 10_000,
    })
    const c = parseConfig({
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      SQLITE_BUSY_TIMEOUT_MS: '0',
      REQUEST_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '70000',
      SHUTDOWN_DRAIN_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '3000',
    })
    assert.deepEqual(Object.values(c.timeouts), [1000, 2000, 0, 4000, 70_000, 0, 3000])
    for (const env of [
      { DB_STATEMENT_TIMEOUT_MS: '0' },
      { REQUEST_TIMEOUT_MS: 'soon' },
      { SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT_MS: '5000' },
    ]) {
      assert.throws(() => parseConfig(env), ConfigError, JSON.stringify(env))
    }
  })

  it('reads VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither, one P-256 pair, the private key never echoed', () => {
    const pair = webPush.generateVAPIDKeys()
    const other = webPush.generateVAPIDKeys()
    assert.equal(parseConfig({}).vapidKeys, null)
    assert.deepEqual(
      parseConfig({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey }).vapidKeys,
      pair,
    )
    // Padding is read past and left out again.
    assert.deepEqual(
      parseConfig({ VAPID_PUBLIC_KEY: `${pair.publicKey}=`, VAPID_PRIVATE_KEY: ` ${pair.privateKey} ` }).vapidKeys,
      pair,
    )
    const refused: [Record<string, string>, RegExp][] = [
      [{ VAPID_PUBLIC_KEY: pair.publicKey }, /both or neither/],
      [{ VAPID_PRIVATE_KEY: pair.privateKey }, /both or neither/],
      [{ VAPID_PUBLIC_KEY: 'not+base64/url', VAPID_PRIVATE_KEY: pair.privateKey }, /VAPID_PUBLIC_KEY must be/],
      [{ VAPID_PUBLIC_KEY: pair.privateKey, VAPID_PRIVATE_KEY: pair.privateKey }, /VAPID_PUBLIC_KEY must be/],
      [{ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.publicKey }, /VAPID_PRIVATE_KEY must be/],
      [{ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: 'AAAA' }, /VAPID_PRIVATE_KEY must be/],
      [
        { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: Buffer.alloc(32).toString('base64url') },
        /not a valid P-256 private key/,
      ],
      [{ VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: pair.privateKey }, /not the public key of/],
    ]
    for (const [env, message] of refused) {
      assert.throws(
        () => parseConfig(env),
        (e: Error) =>
          e instanceof ConfigError &&
          message.test(e.message) &&
          !e.message.includes(pair.privateKey) &&
          !e.message.includes('\n'),
        JSON.stringify(env),
      )
    }
  })
})
