import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/**
 * `request.log`: the request's child logger (bound to its request id), made
 * only when something is logged at an enabled level. Fastify makes a pino
 * child for every request, which costs more than a small request itself; most
 * requests log one line (app.ts, onResponse) or, below info level, none.
 */
export class RequestLogger {
  private made: FastifyBaseLogger | null = null

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options))
  }

  get level(): string {
    return this.made?.level ?? this.parent.level
  }

  set level(level: string) {
    this.logger.level = level
  }

  isLevelEnabled(level: string): boolean {
    return isLevelEnabled(this.made ?? this.parent, level)
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return
    ;(this.logger[level] as (...a: unknown[]) => void)(...args)
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args)
  }
  error(...args: unknown[]): void {
    this.write('error', args)
  }
  warn(...args: unknown[]): void {
    this.write('warn', args)
  }
  info(...args: unknown[]): void {
    this.write('info', args)
  }
  debug(...args: unknown[]): void {
    this.write('debug', args)
  }
  trace(...args: unknown[]): void {
    this.write('trace', args)
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options)
  }
}

/** Whether `logger` writes at `level`. Without a logger (tests), Fastify's stand-in has no levels: nothing is written. */
export function isLevelEnabled(logger: FastifyBaseLogger, level: string): boolean {
  const { isLevelEnabled } = logger as { isLevelEnabled?: (level: string) => boolean }
  return typeof isLevelEnabled === 'function' && isLevelEnabled.call(logger, level)
}

/** For Fastify's `childLoggerFactory` option. */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger
}
