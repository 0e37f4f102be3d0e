// A local SMTP server in its own process for the notification benchmark, so
// that receiving mail does not share an event loop with the load generator.
// Prints "PORT <n>" once listening, then "M" for every message accepted.
import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'

const server = new SMTPServer({
  authOptional: true,
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
  onData(stream, _session, callback) {
    stream.on('data', () => {})
    stream.on('end', () => {
      process.stdout.write('M\n')
      callback()
    })
  },
})
server.on('error', () => {})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.server.address() as AddressInfo).port}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
