import type { FullConfig } from '@playwright/test'

/**
 * Fails fast, with a plain message, when the server does not serve the built
 * client (otherwise every spec would wait for a page that never renders).
 */
export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL
  if (!baseURL) return
  const html = await (await fetch(`${baseURL}/signin`)).text()
  const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1]
  if (!script) throw new Error(`${baseURL}/signin did not return the web client's index.html — is web/dist built?`)
  const res = await fetch(new URL(script, baseURL))
  if (!res.ok) {
    throw new Error(
      `${baseURL} serves index.html but answers ${res.status} for its script ${script}; ` +
        'the server must serve web/dist/assets without authentication. ' +
        '(E2E_CLIENT=preview serves the same build through vite preview instead.)',
    )
  }
}
