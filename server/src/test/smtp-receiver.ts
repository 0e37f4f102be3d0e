import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'

export interface ReceivedMail {
  from: string
  to: string[]
  /** The AUTH user name the client signed in with, if any. */
  user: string | null
  subject: string
  text: string
  html: string
  raw: string
}

/** Quoted-printable to UTF-8 text. */
function decodeQp(body: string): string {
  const bytes: number[] = []
  const text = body.replace(/=\r?\n/g, '')
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / ?B?) in a header. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQp(data.replace(/_/g, ' ')),
  )
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>()
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim())
  }
  return headers
}

function decodePart(headers: Map<string, string>, body: string): string {
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase()
  if (encoding === 'quoted-printable') return decodeQp(body)
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  return body
}

/** The text and HTML parts of a message as nodemailer writes it (multipart/alternative or a single part). */
function parseMail(raw: string): { subject: string; text: string; html: string } {
  const split = raw.indexOf('\r\n\r\n')
  const headers = headersOf(raw.slice(0, split))
  const body = raw.slice(split + 4)
  const subject = decodeHeader(headers.get('subject') ?? '')
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1]
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => {
          const at = part.indexOf('\r\n\r\n')
          return { headers: headersOf(part.slice(0, at)), body: part.slice(at + 4).replace(/\r\n$/, '') }
        })
    : [{ headers, body }]
  const find = (type: string) => {
    const part = parts.find((p) => (p.headers.get('content-type') ?? '').startsWith(type))
    return part ? decodePart(part.headers, part.body) : ''
  }
  return { subject, text: find('text/plain'), html: find('text/html') }
}

/**
 * A real SMTP server in the test process (the `smtp-server` package): it
 * accepts any sign-in, keeps every message it accepts, and answers DATA with
 * the SMTP error `failWith` returns (e.g. 451, 554) while that is not null.
 */
export class SmtpReceiver {
  readonly mail: ReceivedMail[] = []
  failWith: () => number | null = () => null
  /** Every DATA the server answered, accepted or not. */
  attempts = 0

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpReceiver> {
    // The handlers below run only after the receiver exists.
    const holder: { receiver?: SmtpReceiver } = {}
    const server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username })
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          holder.receiver!.attempts++
          const code = holder.receiver!.failWith()
          if (code !== null) {
            const error = new Error(code >= 500 ? 'Rejected for good' : 'Try again later') as Error & {
              responseCode: number
            }
            error.responseCode = code
            return callback(error)
          }
          const raw = Buffer.concat(chunks).toString('utf8')
          holder.receiver!.mail.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: (session.user as string | undefined) ?? null,
            raw,
            ...parseMail(raw),
          })
          callback()
        })
      },
    })
    // A client going away mid-connection (a server process stopped) is no failure of the receiver.
    server.on('error', () => {})
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    holder.receiver = new SmtpReceiver(server, (server.server.address() as AddressInfo).port)
    return holder.receiver
  }

  url(credentials = 'stake:smtp-secret'): string {
    return `smtp://${credentials}@127.0.0.1:${this.port}`
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
