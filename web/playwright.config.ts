import { defineConfig, devices } from '@playwright/test'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * End-to-end tests: the real server (server/src/main.ts) on a fresh SQLite
 * database in a temporary directory, serving the client built into web/dist
 * (`npm run test:e2e -w web` builds first). The access token lives 5 seconds
 * here — a configuration value, not a test-only code path — so the tests
 * exercise the transparent refresh.
 */
const port = Number(process.env.E2E_PORT ?? 8123)
// Workers re-read this file; the main process fixes the database path once.
process.env.E2E_DB ??= join(tmpdir(), `stake-e2e-${process.pid}-${Date.now()}.db`)
process.env.E2E_ADMIN_PASSWORD ??= 'Initial-Admin-Pass-2024'
process.env.E2E_TOKEN_TTL ??= '5'

// E2E_BASE_URL points the tests at an instance that is already running; then
// no server is started.
const external = process.env.E2E_BASE_URL
// E2E_CLIENT=preview serves the same built client with `vite preview` (which
// proxies /api to the real server) instead of the server's own static files.
const viaPreview = process.env.E2E_CLIENT === 'preview'
const apiUrl = `http://127.0.0.1:${port}`
const previewUrl = `http://127.0.0.1:${port + 1}`

const apiServer = {
  command: 'node --import tsx ../server/src/main.ts',
  url: `${apiUrl}/health`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${process.env.E2E_DB}`,
    ADMIN_EMAIL: 'admin@example.com',
    INITIAL_ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD!,
    ACCESS_TOKEN_TTL_SECONDS: process.env.E2E_TOKEN_TTL!,
    COOKIE_SECURE: 'false',
    LOG_LEVEL: 'warn',
    // One server process: the browser tests are about the client (a cluster is tested in server/src/cluster.processes.test.ts).
    WORKERS: '1',
    // The tests are the proxy: a spec that signs up several stakes names a
    // client address of its own (e2e/signup.ts), so the per-address signup
    // limit counts each spec apart, as it would count separate people.
    TRUST_PROXY: '127.0.0.1',
    // e2e/webhooks.spec.ts posts to a receiver on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE: 'true',
  },
}

const previewServer = {
  command: `npx vite preview --port ${port + 1} --strictPort`,
  url: `${previewUrl}/signin`,
  reuseExistingServer: false,
  timeout: 30_000,
  stdout: 'ignore' as const,
  env: { API_TARGET: apiUrl },
}

export default defineConfig({
  testDir: '../e2e',
  globalSetup: '../e2e/global-setup.ts',
  globalTeardown: '../e2e/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: external ?? (viaPreview ? previewUrl : apiUrl),
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    // The built client registers a service worker; request interception
    // (page.route) does not see what a worker answers, so specs run without
    // one. e2e/pwa.spec.ts allows it in its own contexts.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } }],
  webServer: external ? undefined : viaPreview ? [apiServer, previewServer] : [apiServer],
})
