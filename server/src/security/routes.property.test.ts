import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import fc from 'fast-check'
import { sql } from 'kysely'
import type { LightMyRequestResponse } from 'fastify'
import { dialect, useTestApp } from '../test/harness.ts'
import { ALL_PERMISSIONS, signedIn } from '../test/factories.ts'
import { createWard, submit } from '../test/proposals.fixtures.ts'
import { hashSecret } from '../modules/auth/tokens.ts'
import { createSignupCode } from '../modules/stakes/signup.repository.ts'

/**
 * Property (S1, docs/api-reference.md §2): for every route of the OpenAPI document, wrong-
 * typed bodies, non-decimal path ids and wrong-typed query values get a 4xx
 * in the documented shape — never a 5xx — and write nothing (no coerced
 * write). Signed in as an all-permissions administrator and anonymously.
 */

interface JsonSchema {
  type?: string | string[]
  anyOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
}
interface Parameter {
  in: 'path' | 'query'
  name: string
  schema: JsonSchema
}
interface Operation {
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
}
interface Route {
  method: string
  path: string
  params: Parameter[]
  query: Parameter[]
  body: JsonSchema | null
}

const RUNS = Number(process.env.PROPERTY_RUNS ?? 20)

function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>(Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [])
  for (const branch of schema.anyOf ?? []) for (const t of typesOf(branch)) types.add(t)
  if (types.has('integer')) types.add('number!int')
  return types
}

/** JSON values whose type the schema does not accept (a "5" for an integer, 5 for a string, null for a non-nullable). */
function wrongValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const ok = typesOf(schema)
  const options: fc.Arbitrary<unknown>[] = []
  if (!ok.has('string')) options.push(fc.string({ maxLength: 12 }), fc.constantFrom('5', '0x10', '1e3', 'true', ''))
  if (!ok.has('integer') && !ok.has('number')) options.push(fc.integer(), fc.constantFrom(0, 1, -1))
  if (ok.has('integer') && !ok.has('number'))
    options.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)))
  if (!ok.has('boolean')) options.push(fc.boolean())
  if (!ok.has('null')) options.push(fc.constant(null))
  if (!ok.has('array')) options.push(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }))
  if (!ok.has('object'))
    options.push(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }))
  return fc.oneof(...options)
}

/** A body with at least one property of a wrong type, or a body that is not an object at all. */
function wrongBody(schema: JsonSchema): fc.Arbitrary<unknown> {
  const names = Object.keys(schema.properties ?? {})
  const notAnObject = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 8 }),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 2 }),
  )
  if (names.length === 0) return notAnObject
  const withWrongField = fc
    .constantFrom(...names)
    .chain((name) =>
      fc
        .record(Object.fromEntries(names.map((n) => [n, fc.jsonValue({ maxDepth: 1 })])), { requiredKeys: [] })
        .chain((others) => wrongValue(schema.properties![name]!).map((wrong) => ({ ...others, [name]: wrong }))),
    )
  return fc.oneof({ arbitrary: withWrongField, weight: 4 }, { arbitrary: notAnObject, weight: 1 })
}

/** Path ids that are not plain decimal digits. */
const wrongId = fc.oneof(
  fc.constantFrom(
    '0x10',
    '+1',
    '-1',
    '1e3',
    '1.0',
    ' 1',
    '1 ',
    '0b1',
    '0o7',
    'Infinity',
    'NaN',
    '１',
    'abc',
    '%00',
    '%2F',
  ),
  // "." and ".." are dot segments: the URL resolves them before routing (RFC 3986 §5.2.4), so they
  // name another path (`/proposals/.` is the list), not an id of this route.
  fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/^\d+$/.test(s) && s !== '.' && s !== '..'),
)

/** Query values wrong for an integer or boolean parameter. */
function wrongQueryValue(schema: JsonSchema): fc.Arbitrary<string> | null {
  const ok = typesOf(schema)
  if (ok.has('integer') || ok.has('number'))
    return fc.oneof(
      fc.constantFrom('0x10', '+5', '1e3', '-1', '1.5', ' 7', 'ten'),
      fc.string({ maxLength: 5 }).filter((s) => !/^\d+$/.test(s)),
    )
  if (ok.has('boolean'))
    return fc.oneof(
      fc.constantFrom('1', '0', 'yes', 'TRUE', ' true', ''),
      fc.string({ maxLength: 5 }).filter((s) => s !== 'true' && s !== 'false'),
    )
  return null
}

function assertDocumentedError(res: LightMyRequestResponse, what: string): void {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${what}: ${res.statusCode} ${res.body}`)
  const body = res.json()
  if (res.statusCode === 422) {
    assert.ok(Array.isArray(body.detail) && body.detail.length > 0, `${what}: ${res.body}`)
    for (const d of body.detail) {
      assert.ok(Array.isArray(d.loc) && d.loc.every((l: unknown) => typeof l === 'string'), `${what}: ${res.body}`)
      assert.ok(['body', 'query', 'path', 'header'].includes(d.loc[0]), `${what}: ${res.body}`)
      assert.equal(typeof d.msg, 'string')
      assert.equal(typeof d.type, 'string')
    }
  } else {
    assert.equal(typeof body.detail, 'string', `${what}: ${res.body}`)
    assert.ok(body.code === undefined || typeof body.code === 'string', `${what}: ${res.body}`)
    assert.deepEqual(
      Object.keys(body).filter((k) => k !== 'detail' && k !== 'code'),
      [],
      `${what}: ${res.body}`,
    )
  }
}

describe('property: every route refuses wrong-typed input with a documented 4xx and writes nothing', () => {
  const t = useTestApp()
  let routes: Route[]
  let admin: Awaited<ReturnType<typeof signedIn>>
  let tables: string[]

  before(async () => {
    admin = await signedIn(t, { permissions: ALL_PERMISSIONS })
    const ward = await createWard(t.database.db)
    await submit(admin.as, ward)
    // POST /stakes exists once the operator has made a signup code (docs/api-reference.md §14).
    await createSignupCode(t.database.db, hashSecret('property-test-code'), 1, t.clock.iso())
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> }
    routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          params: (op.parameters ?? []).filter((p) => p.in === 'path'),
          query: (op.parameters ?? []).filter((p) => p.in === 'query'),
          body: op.requestBody?.content['application/json']?.schema ?? null,
        })),
    )
    assert.ok(routes.length > 30, 'the document lists the routes')
    const names =
      dialect === 'postgres'
        ? await sql<{
            name: string
          }>`select table_name as name from information_schema.tables where table_schema = 'public'`.execute(
            t.database.db,
          )
        : await sql<{
            name: string
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.database.db)
    // Everything but what signing in and out writes by design.
    tables = names.rows
      .map((r) => r.name)
      .filter((n) => !/^(sessions|session_retired_tokens|login_throttle|kysely_migration.*)$/.test(n))
      .sort()
  })

  /** Every row of every domain table: any write shows as a difference. */
  async function snapshot(): Promise<string> {
    const parts = []
    for (const table of tables) parts.push((await sql`select * from ${sql.table(table)}`.execute(t.database.db)).rows)
    return JSON.stringify(parts)
  }

  const urlOf = (route: Route, ids: Record<string, string>, query = '') =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? '1') + query

  const send = (route: Route, url: string, token: string | null, payload?: unknown) =>
    t.app.inject({
      method: route.method as 'GET',
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    })

  /** `notFound`: a 404 is as good as a 422 (a path id that is no id at all may match no route, contract S1). */
  async function check(
    label: string,
    arbitrary: fc.Arbitrary<{ url: string; payload?: unknown }>,
    route: Route,
    notFound = false,
  ) {
    for (const [who, token] of [
      ['admin', admin.token],
      ['anonymous', null],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ url, payload }) => {
          const before = await snapshot()
          const res = await send(route, url, token, payload)
          assertDocumentedError(res, `${who} ${route.method} ${url} ${JSON.stringify(payload)}`)
          const expected =
            res.statusCode === 422 || (notFound && res.statusCode === 404 && res.json().code === 'not_found')
          if (who === 'admin' && !expected) {
            assert.fail(
              `${label}: ${route.method} ${url} ${JSON.stringify(payload)} answered ${res.statusCode}, not 422: ${res.body}`,
            )
          }
          assert.equal(await snapshot(), before, `${route.method} ${url} ${JSON.stringify(payload)} wrote something`)
        }),
        { numRuns: who === 'admin' ? RUNS : Math.ceil(RUNS / 3) },
      )
    }
  }

  it('wrong-typed JSON bodies: 422 listing body fields, nothing written', async () => {
    for (const route of routes.filter((r) => r.body)) {
      await check(
        'body',
        wrongBody(route.body!).map((payload) => ({ url: urlOf(route, {}), payload })),
        route,
      )
    }
  })

  it('path ids that are not plain decimal digits: 422, nothing written (never another record)', async () => {
    for (const route of routes.filter((r) => r.params.some((p) => typesOf(p.schema).has('integer')))) {
      const intParams = route.params.filter((p) => typesOf(p.schema).has('integer'))
      const arbitrary = fc
        .record(
          Object.fromEntries(
            intParams.map((p) => [p.name, fc.option(wrongId.map(encodeURIComponent), { nil: undefined })]),
          ),
        )
        .filter((ids) => Object.values(ids).some((v) => v !== undefined))
        .map((ids) => ({ url: urlOf(route, ids as Record<string, string>), payload: route.body ? {} : undefined }))
      await check('path', arbitrary, route, true)
    }
  })

  it('wrong-typed query values: 422 listing query fields, nothing written', async () => {
    for (const route of routes) {
      const typed = route.query.flatMap((p) => {
        const wrong = wrongQueryValue(p.schema)
        return wrong ? [[p.name, wrong] as const] : []
      })
      if (typed.length === 0) continue
      const arbitrary = fc
        .constantFrom(...typed)
        .chain(([name, wrong]) => wrong.map((value) => `?${name}=${encodeURIComponent(value)}`))
        .map((query) => ({ url: urlOf(route, {}, query), payload: route.body ? {} : undefined }))
      await check('query', arbitrary, route)
    }
  })
})
