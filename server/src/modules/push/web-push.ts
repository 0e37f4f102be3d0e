import type WebPush from 'web-push'

let loaded: Promise<typeof WebPush> | null = null

/**
 * web-push, loaded on the first push or key (~15 MB of memory a deployment
 * without push devices never needs; docs/performance.md).
 */
export function loadWebPush(): Promise<typeof WebPush> {
  loaded ??= import('web-push').then((m) => m.default)
  return loaded
}
