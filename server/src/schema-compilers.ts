import AjvCompiler, { type ValidatorFactory } from '@fastify/ajv-compiler'
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler'
import type { FastifyInstance } from 'fastify'
import { buildSerializer } from './serializer.ts'

/** What was compiled of an app's route schemas, and how many there are. */
export interface SchemaCounts {
  compiled: number
  total: number
}

interface Compilers {
  buildValidator: ValidatorFactory
  buildSerializer: SerializerFactory
  counts(): SchemaCounts
  compileAll(): void
}

/**
 * Each route's validators (Ajv) and response serializers (fast-json-stringify)
 * compiled on the route's first use, not all at start: compiling the ~200
 * routes' schemas was ~0.4 s of a cold start's CPU and ~25 MB of its memory,
 * for routes most processes never serve. The first request to a route pays
 * its own (a few milliseconds); the answers are the same. Every schema still
 * compiles in the tests (`compileEverySchema`), so a broken one fails there,
 * not on a user's first request.
 */
function lazyCompilers(): Compilers {
  const thunks: { compiled: boolean; compile(): unknown }[] = []
  /** A compilation put off until `get` is first called. */
  function later<F>(compile: () => F): () => F {
    let done: F | undefined
    const thunk = {
      compiled: false,
      compile: () => {
        if (!thunk.compiled) {
          done = compile()
          thunk.compiled = true
        }
        return done as F
      },
    }
    thunks.push(thunk)
    return thunk.compile
  }
  const ajv = AjvCompiler()
  return {
    buildValidator: ((externalSchemas: Parameters<typeof ajv>[0], options: Parameters<typeof ajv>[1]) => {
      const compile = ajv(externalSchemas, options) as unknown as (route: unknown) => Validate
      return (route: unknown) => {
        const get = later(() => compile(route))
        // Fastify reads the errors off the function it called.
        const validate: Validate = (data) => {
          const compiled = get()
          const valid = compiled(data)
          validate.errors = compiled.errors
          return valid
        }
        return validate
      }
    }) as ValidatorFactory,
    buildSerializer: (externalSchemas, options) => {
      const compile = buildSerializer(externalSchemas, options)
      return (route) => {
        const get = later(() => compile(route))
        return (doc) => get()(doc)
      }
    },
    counts: () => ({ compiled: thunks.filter((t) => t.compiled).length, total: thunks.length }),
    compileAll: () => {
      for (const thunk of thunks) thunk.compile()
    },
  }
}

interface Validate {
  (data: unknown): boolean | Promise<unknown>
  errors?: unknown
}

const byApp = new WeakMap<object, Compilers>()

/** The compilers for one app (Fastify's `schemaController.compilersFactory`); `adopt` ties them to it once built. */
export function schemaCompilers() {
  const compilers = lazyCompilers()
  return {
    compilersFactory: { buildValidator: compilers.buildValidator, buildSerializer: compilers.buildSerializer },
    adopt: (app: FastifyInstance) => byApp.set(app, compilers),
  }
}

/** How many of the app's schemas were compiled so far, of all it has. */
export function schemaCounts(app: FastifyInstance): SchemaCounts {
  return byApp.get(app)?.counts() ?? { compiled: 0, total: 0 }
}

/** Compiles every schema of the app not yet compiled: throws on the first that does not compile. */
export function compileEverySchema(app: FastifyInstance): void {
  byApp.get(app)?.compileAll()
}
