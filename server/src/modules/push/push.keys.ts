import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { DB } from '../../db/schema.ts'
import { loadWebPush } from './web-push.ts'

export interface VapidKeys {
  /** base64url, the browser's `applicationServerKey`. */
  publicKey: string
  privateKey: string
}

const KEY = 'vapid_keys'
const known = new WeakMap<Kysely<DB>, Promise<VapidKeys>>()

/**
 * The deployment's VAPID key pair (RFC 8292), kept like the JWT secret
 * (modules/auth/bootstrap.ts): the pair in VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY when the operator gives one (checked in config.ts; then
 * nothing is stored), else generated once, stored in `app_settings`, shared
 * by every instance on the database. One row holds both halves, so two
 * instances starting together cannot end with halves of different pairs
 * (insert-if-absent, then read: the first writer wins). Deployment-wide: a
 * browser subscribed in any stake accepts pushes signed by this key.
 */
export function vapidKeys(db: Kysely<DB>, config: Pick<Config, 'vapidKeys'>): Promise<VapidKeys> {
  if (config.vapidKeys) return Promise.resolve(config.vapidKeys)
  let keys = known.get(db)
  if (!keys) {
    keys = (async () => {
      const fresh = (await loadWebPush()).generateVAPIDKeys()
      await db
        .insertInto('app_settings')
        .values({ key: KEY, value: JSON.stringify(fresh) })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute()
      const row = await db.selectFrom('app_settings').select('value').where('key', '=', KEY).executeTakeFirstOrThrow()
      return JSON.parse(row.value) as VapidKeys
    })()
    keys.catch(() => known.delete(db))
    known.set(db, keys)
  }
  return keys
}

/**
 * The contact the push services see in the VAPID claim (`sub`): PUBLIC_URL
 * when it is https, otherwise MAIL_FROM's address as a mailto: URL.
 */
export function vapidSubject(config: Pick<Config, 'publicUrl' | 'mailFrom'>): string {
  if (config.publicUrl?.startsWith('https://')) return config.publicUrl
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom
  return `mailto:${address}`
}
