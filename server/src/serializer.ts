import SerializerSelector from '@fastify/fast-json-stringify-compiler'

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean'])

type Schema = Record<string, unknown>

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null
const isNull = (s: unknown) => isObject(s) && s.type === 'null' && Object.keys(s).length === 1

/**
 * A nullable primitive as the contract writes it (TypeBox's
 * `Union([String(...), Null()])`, an `anyOf`) becomes `type: [<type>, 'null']`
 * for the response serializer only. fast-json-stringify picks an `anyOf`
 * branch by running Ajv on every value (formats included); a list of types it
 * decides by `typeof`. On the compact board (1,000 cards, each interview's two
 * nullable timestamps) that is 3.8 ms → 1.4 ms a serialization. Validation of
 * requests and the OpenAPI document keep the schemas as written.
 */
export function nullableAsTypeList(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsTypeList)
  if (!isObject(schema)) return schema
  const out: Schema = {}
  for (const key of Object.keys(schema)) out[key] = nullableAsTypeList(schema[key])
  const branches = out.anyOf
  if (Array.isArray(branches) && branches.length === 2 && branches.some(isNull)) {
    const other = branches.find((b) => !isNull(b))
    if (isObject(other) && typeof other.type === 'string' && PRIMITIVES.has(other.type) && !('const' in other)) {
      const { anyOf: _anyOf, ...rest } = out
      return { ...rest, ...other, type: [other.type, 'null'] }
    }
  }
  return out
}

/** Fastify's own serializer compiler (fast-json-stringify), given the schemas with nullable primitives as type lists. */
export const buildSerializer: SerializerSelector.SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector.SerializerSelector()(externalSchemas, options)
  return (route) => compile({ ...route, schema: nullableAsTypeList(route.schema) })
}
