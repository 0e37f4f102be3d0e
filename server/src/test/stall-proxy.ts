import net from 'node:net'

/**
 * A TCP proxy that can go silent: `stall()` stops forwarding in both
 * directions without closing or resetting anything (packets that are never
 * answered, as on a dead link), `resume()` forwards again.
 */
export class StallProxy {
  private readonly server: net.Server
  private readonly sockets = new Set<net.Socket>()
  private stalled = false
  private held: (() => void)[] = []

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
    server: net.Server,
  ) {
    this.server = server
  }

  static async start(target: { host: string; port: number }): Promise<StallProxy> {
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const proxy = new StallProxy(target, (server.address() as net.AddressInfo).port, server)
    server.on('connection', (client) => proxy.pipe(client))
    return proxy
  }

  private pipe(client: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host)
    const forward = (from: net.Socket, to: net.Socket) => {
      this.sockets.add(from)
      from.on('error', () => {})
      from.on('data', (chunk) => this.when(() => to.write(chunk)))
      from.on('end', () => this.when(() => to.end()))
      from.on('close', () => {
        this.sockets.delete(from)
        this.when(() => to.destroy())
      })
    }
    forward(client, upstream)
    forward(upstream, client)
  }

  /** Runs `step` now, or in order once resumed. */
  private when(step: () => void): void {
    if (this.stalled) this.held.push(step)
    else step()
  }

  stall(): void {
    this.stalled = true
  }

  resume(): void {
    this.stalled = false
    for (const step of this.held.splice(0)) step()
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise((resolve) => this.server.close(resolve))
  }
}
