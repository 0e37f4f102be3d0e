import type { PushDevice, PushDeviceBody, PushTestResult } from '@stake/contract'
import type { AppContext } from '../../context.ts'
import { notFound, ValidationFailure } from '../../errors.ts'
import { withTransaction } from '../../db/transaction.ts'
import type { Actor } from '../../actor.ts'
import { urlProblem } from '../webhooks/address.ts'
import { vapidKeys } from './push.keys.ts'
import * as repo from './push.repository.ts'
import { PUSH_PORTS, PushWorker } from './push.worker.ts'

const deviceNotFound = () => notFound('Device')

/** Decodes base64url strictly (no padding, only its alphabet); null otherwise. */
function base64url(value: string): Buffer | null {
  return /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url') : null
}

const TEST_TEXT = {
  en: { title: 'Test notification', body: 'Notifications reach this device.' },
  es: { title: 'Notificación de prueba', body: 'Las notificaciones llegan a este dispositivo.' },
}

/** Web Push devices of the signed-in user; every route acts on the caller's own devices only. */
export class PushService {
  constructor(private readonly ctx: AppContext) {}

  async key(): Promise<{ public_key: string }> {
    return { public_key: (await vapidKeys(this.ctx.db, this.ctx.config)).publicKey }
  }

  async list(actor: Actor): Promise<PushDevice[]> {
    return (await repo.listDevices(this.ctx.db, actor.id)).map(repo.toDevice)
  }

  /**
   * Saves the caller's device. The endpoint is where the server will post on
   * this user's behalf, so it must look like a browser's push service: https
   * on 443 at a public address (docs/SECURITY.md "Push"). WEBHOOK_ALLOW_PRIVATE
   * does not apply (any signed-in user adds devices); only PUSH_ALLOW_PRIVATE
   * (tests, never in production) lifts the three rules. The keys must be a
   * P-256 point and a 16-byte secret, so the worker never meets a
   * subscription it cannot encrypt for.
   */
  async save(actor: Actor, body: PushDeviceBody): Promise<PushDevice> {
    const endpoint = body.endpoint.trim()
    const allowPrivate = this.ctx.config.pushAllowPrivate
    const errors: { loc: string[]; msg: string; type: string }[] = []
    const problem = await urlProblem(endpoint, { allowPrivate, ports: PUSH_PORTS })
    if (problem) errors.push({ loc: ['body', 'endpoint'], ...problem })
    else if (!allowPrivate && !endpoint.startsWith('https://'))
      errors.push({ loc: ['body', 'endpoint'], msg: 'Only https push services are allowed', type: 'url_scheme' })
    const p256dh = base64url(body.keys.p256dh)
    if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 4)
      errors.push({ loc: ['body', 'keys', 'p256dh'], msg: 'Not a P-256 public key', type: 'value_error' })
    const auth = base64url(body.keys.auth)
    if (!auth || auth.length !== 16)
      errors.push({ loc: ['body', 'keys', 'auth'], msg: 'Not a 16-byte secret', type: 'value_error' })
    if (errors.length > 0) throw new ValidationFailure(errors)
    const row = await withTransaction(this.ctx.db, (trx) =>
      repo.saveDevice(trx, {
        user_id: actor.id,
        endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        label: body.label?.trim() || 'Device',
        created_at: this.ctx.clock.iso(),
      }),
    )
    return repo.toDevice(row)
  }

  async remove(actor: Actor, id: number): Promise<void> {
    if (!(await repo.deleteDevice(this.ctx.db, actor.id, id))) throw deviceNotFound()
  }

  /** Queues a test push to one of the caller's devices and sends it now; retried like any push if it failed (S18). */
  async test(actor: Actor, id: number): Promise<PushTestResult> {
    const device = await repo.findDevice(this.ctx.db, actor.id, id)
    if (!device) throw deviceNotFound()
    // The caller's language as this request's session check read it.
    const text = TEST_TEXT[actor.user.language]
    const at = this.ctx.clock.iso()
    const pushId = await withTransaction(this.ctx.db, (trx) =>
      repo.queueOne(trx, device.id, { ...text, url: '/profile', tag: 'test' }, at),
    )
    const outcome = await new PushWorker({ ...this.ctx }).runOne(pushId)
    // Nothing finer: a why (refused, unreachable, closed) would make the button a probe of the network.
    return { outcome: outcome === 'sent' ? 'sent' : 'not_delivered' }
  }
}
