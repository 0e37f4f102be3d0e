import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Type } from 'typebox'
import { buildSerializer, nullableAsTypeList } from './serializer.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Schema = Type.Object({
  at: Type.Union([Timestamp, Type.Null()]),
  count: Type.Union([Type.Null(), Type.Integer()]),
  either: Type.Union([Type.String(), Type.Integer()]),
  only: Type.Union([Type.Literal('a'), Type.Null()]),
  list: Type.Array(Type.Object({ name: Type.Union([Type.String(), Type.Null()]) })),
})

const compile = () => buildSerializer(undefined, {})({ method: 'GET', url: '/x', httpStatus: '200', schema: Schema })

test('a nullable primitive becomes a list of types, its other keywords kept; other unions stay as written', () => {
  const out = nullableAsTypeList(Schema) as {
    properties: Record<string, Record<string, unknown>>
  }
  assert.deepEqual(out.properties.at, { type: ['string', 'null'], format: 'date-time' })
  assert.deepEqual(out.properties.count, { type: ['integer', 'null'] })
  assert.ok(Array.isArray(out.properties.either!.anyOf), 'a union of two non-null types is left alone')
  assert.ok(Array.isArray(out.properties.only!.anyOf), 'a nullable constant is left alone')
  const items = out.properties.list!.items as { properties: Record<string, unknown> }
  assert.deepEqual(items.properties.name, { type: ['string', 'null'] }, 'nested schemas too')
  assert.ok(Array.isArray(Schema.properties.at.anyOf), 'the contract’s schema itself is not changed')
})

test('the serializer writes nullable fields exactly as JSON.stringify, null or not', () => {
  const serialize = compile()
  for (const value of [
    { at: null, count: null, either: 'x', only: null, list: [{ name: null }] },
    { at: '2026-11-28T05:00:00.000Z', count: 3, either: 4, only: 'a', list: [{ name: 'Ana "Q" <b>' }] },
  ]) {
    assert.equal(serialize(value), JSON.stringify(value))
  }
})

test('the serializer decides a nullable timestamp by its type, without checking the format per value', () => {
  // With the anyOf as written, fast-json-stringify runs Ajv on the value and
  // throws when neither branch matches: that per-value check is the cost removed.
  const value = { at: 'not a date', count: 1, either: 1, only: 'a', list: [] }
  assert.equal(compile()(value), JSON.stringify(value))
})
