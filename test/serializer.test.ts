// Response serialization: JSON.stringify in production, checked against the route's
// schema elsewhere (src/http/serializer.ts), so a view cannot drift from its schema.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Type } from '@sinclair/typebox';
import { ResponseShapeError, serializerCompiler } from '../src/http/serializer.ts';

const route = { schema: Type.Object({ id: Type.Integer(), name: Type.String() }), method: 'GET', url: '/things/:id', httpStatus: '200' };

test('checked: an answer that matches its schema serializes as JSON.stringify does, in any key order', () => {
  const serialize = serializerCompiler(true)(route);
  assert.equal(serialize({ name: 'a', id: 1 }), '{"name":"a","id":1}');
});

test('checked: a field the schema lacks, or a value of another type, is refused', () => {
  const serialize = serializerCompiler(true)(route);
  assert.throws(() => serialize({ id: 1, name: 'a', secret: 'x' }), ResponseShapeError);
  assert.throws(() => serialize({ id: '1', name: 'a' }), ResponseShapeError);
});

test('production: JSON.stringify, no schema pass', () => {
  const serialize = serializerCompiler(false)(route);
  assert.equal(serialize({ id: 1, name: 'a', extra: true }), '{"id":1,"name":"a","extra":true}');
});
