import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './process.ts'

/** Runs a command as the `postgres` OS user; fails after `timeoutMs`. */
function asPostgres(command: string, args: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('runuser', ['-u', 'postgres', '--', command, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${path.basename(command)} ${args[0]}: exit ${code}: ${output}`)),
    )
  })
}

/** The newest installed PostgreSQL's bin directory, or why none can be used. */
function binaries(): string | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'needs root to run a private PostgreSQL as the postgres user' }
  const root = '/usr/lib/postgresql'
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  const bin = versions.map((v) => path.join(root, v, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'initdb')))
  if (!bin) return { skip: `no PostgreSQL binaries under ${root}` }
  return uidOf('postgres') === undefined ? { skip: 'no postgres OS user' } : bin
}

/**
 * A throwaway PostgreSQL cluster of our own (a temporary directory, a free
 * port, trust authentication), which a test may stop and restart: the
 * shared server on 5432 is never touched.
 */
export class PrivateCluster {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** Or `{skip}` with the reason when this machine cannot run one. */
  static available(): { skip: string } | null {
    const bin = binaries()
    return typeof bin === 'string' ? null : bin
  }

  static async create(): Promise<PrivateCluster> {
    const bin = binaries()
    if (typeof bin !== 'string') throw new Error(bin.skip)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stake-pg-'))
    fs.chownSync(dir, uidOf('postgres')!, -1)
    const cluster = new PrivateCluster(bin, dir, await freePort())
    await asPostgres(path.join(bin, 'initdb'), [
      '-D',
      cluster.data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
    ])
    await cluster.start()
    return cluster
  }

  private get data() {
    return path.join(this.dir, 'data')
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }

  private pgCtl(args: string[]): Promise<string> {
    return asPostgres(path.join(this.bin, 'pg_ctl'), ['-D', this.data, '-w', '-t', '30', ...args])
  }

  start(): Promise<string> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`
    return this.pgCtl(['-l', path.join(this.dir, 'log'), '-o', options, 'start'])
  }

  /** `fast`: ends every session with 57P01, as an administrator's restart does. */
  stop(): Promise<string> {
    return this.pgCtl(['-m', 'fast', 'stop'])
  }

  async restart(): Promise<void> {
    await this.stop()
    await this.start()
  }

  async destroy(): Promise<void> {
    await this.pgCtl(['-m', 'immediate', 'stop']).catch(() => {})
    fs.rmSync(this.dir, { recursive: true, force: true })
  }
}

function uidOf(user: string): number | undefined {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`))
  return line ? Number(line.split(':')[2]) : undefined
}
