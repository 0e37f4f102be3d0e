/**
 * Strict typing of request input (docs/api-reference.md §10, S1). Ajv coerces nothing
 * (`coerceTypes: false` in app.ts), so a JSON body's `"5"` is never an
 * integer and its `5` never a string. Path and query values arrive as text;
 * this turns them into what their schema asks for, strictly: integers only
 * from plain decimal digits (no sign, hex, exponent or spaces), booleans only
 * from `true`/`false`. Anything else stays text, and the validator answers
 * 422 for it like for any other wrong type.
 */

type Kind = 'integer' | 'number' | 'boolean'

interface SchemaNode {
  type?: string | string[]
  anyOf?: SchemaNode[]
  oneOf?: SchemaNode[]
  properties?: Record<string, SchemaNode>
}

const DIGITS = /^\d{1,15}$/
const DECIMAL = /^\d{1,15}(\.\d{1,15})?$/

/** The non-text kinds a value of this schema may take (a union contributes every branch). */
function kindsOf(schema: SchemaNode, into = new Set<Kind>()): Set<Kind> {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  for (const type of types) if (type === 'integer' || type === 'number' || type === 'boolean') into.add(type)
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) kindsOf(branch, into)
  return into
}

function convert(kinds: Set<Kind>, text: string): unknown {
  if (kinds.has('integer') && DIGITS.test(text)) return Number(text)
  if (kinds.has('number') && DECIMAL.test(text)) return Number(text)
  if (kinds.has('boolean') && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

type Coercer = (values: Record<string, unknown>) => void

const coercers = new WeakMap<object, Coercer>()

function build(schema: SchemaNode): Coercer {
  const fields = Object.entries(schema.properties ?? {})
    .map(([name, property]) => [name, kindsOf(property)] as const)
    .filter(([, kinds]) => kinds.size > 0)
  if (fields.length === 0) return () => {}
  return (values) => {
    for (const [name, kinds] of fields) {
      const value = values[name]
      if (typeof value === 'string') values[name] = convert(kinds, value)
    }
  }
}

/** Converts, in place, the path or query values that `schema` types as integers, numbers or booleans. */
export function coerceStrictly(schema: unknown, values: unknown): void {
  if (!schema || typeof schema !== 'object' || values === null || typeof values !== 'object') return
  let coercer = coercers.get(schema)
  if (!coercer) coercers.set(schema, (coercer = build(schema as SchemaNode)))
  coercer(values as Record<string, unknown>)
}
