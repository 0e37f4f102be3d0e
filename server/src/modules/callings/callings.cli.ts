import type { CliCommand } from '../../cli.types.ts'
import type { Database } from '../../db/database.ts'
import { systemClock } from '../../clock.ts'
import { AppError, ValidationFailure } from '../../errors.ts'
import { findUserByEmail } from '../users/users.repository.ts'
import * as repo from './callings.repository.ts'
import * as slotRepo from './slots.repository.ts'
import { seatUser } from './slots.service.ts'
import { withTransaction } from '../../db/transaction.ts'

/** Turns the service errors an operator can cause into one line and exit code 1. */
async function reporting(run: () => Promise<number>): Promise<number> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof AppError) console.error(`Error: ${error.message}`)
    else if (error instanceof ValidationFailure) console.error(`Error: ${error.errors.map((e) => e.msg).join('; ')}`)
    else throw error
    return 1
  }
}

const holderName = (s: slotRepo.SlotRow) => (s.user_id === null ? '—' : `${s.fname} ${s.lname} (#${s.user_id})`)

const listCallings: CliCommand = {
  name: 'list-callings',
  usage: 'list-callings',
  description: 'list every calling with its slots and holders',
  async run({ db }: Database) {
    const { rows } = await repo.listCallings(db, {}, 'id', 100000, 0)
    const { slots } = await repo.loadDetails(
      db,
      rows.map((r) => r.id),
    )
    for (const calling of rows) {
      const held = slots.get(calling.id)!
      const filled = held.filter((s) => s.user_id !== null).length
      const flags = [calling.key ? `key=${calling.key}` : null, calling.is_public ? 'public' : 'private'].filter(
        Boolean,
      )
      console.log(`${calling.id}\t${calling.name} [${flags.join(', ')}] ${filled}/${held.length} filled`)
      for (const slot of held) {
        console.log(`\t${slot.slot_id}${slot.ward_id ? ` (ward ${slot.ward_id})` : ''}: ${holderName(slot)}`)
      }
    }
    return 0
  },
}

/**
 * The operator's way in (e.g. to seat the first stake president): same
 * rules, atomic fill and history as the API, without the permission check.
 */
const fillSlot: CliCommand = {
  name: 'fill-slot',
  usage: 'fill-slot <calling_id> <slot_id> <email>',
  description: 'seat a user in an empty slot of a calling',
  run: ({ db, dialect }: Database, args: string[]) =>
    reporting(async () => {
      const [callingArg, slotArg, email] = args
      const callingId = Number(callingArg)
      const slotId = Number(slotArg)
      if (!Number.isInteger(callingId) || !Number.isInteger(slotId) || callingId < 1 || slotId < 1 || !email) {
        console.error('Error: fill-slot needs <calling_id> <slot_id> <email> (ids are positive integers)')
        return 1
      }
      const user = await findUserByEmail(db, email)
      if (!user) throw new AppError(404, 'not_found', `No user with email ${email}`)
      const name = await withTransaction(db, async (trx) => {
        const calling = await repo.lockCalling(trx, callingId, dialect, 'share')
        if (!calling) throw new AppError(404, 'not_found', `No calling ${callingId}`)
        if (!(await slotRepo.findSlot(trx, callingId, slotId)))
          throw new AppError(404, 'not_found', `${calling.name} has no slot ${slotId}`)
        await seatUser(trx, { callingId, slotId }, user.id, systemClock.iso(), ['user'])
        return calling.name
      })
      console.log(`Seated ${user.fname} ${user.lname} <${user.email}> in ${name}, slot ${slotId}`)
      return 0
    }),
}

export const CALLINGS_CLI: CliCommand[] = [listCallings, fillSlot]
