// Schema validation: query strings and path params are coerced from text; bodies are
// not (a "true" string is not a boolean), as upstream checks them.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isIsoTimestamp } from '../domain/clock.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const options: Options = {
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: true,
    allErrors: true,
    strict: false,
  };
  const ajv = addFormats(new Ajv(options));
  // `since`, `before` and other times in query strings (IsoTimestamp in schema-types.ts).
  ajv.addFormat('iso-timestamp', { type: 'string', validate: (s: string) => s === '' || isIsoTimestamp(s) });
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

/** The range of the database's integer columns (PostgreSQL `integer`). */
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/**
 * The schema with every integer that sets no bounds of its own bounded to the integer
 * columns' range: a larger id or number cannot name anything stored, and PostgreSQL
 * would refuse to compare with it (a 500); schema validation answers it with a 422.
 */
export function boundIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = boundIntegers(v);
  const type = out.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT_MAX;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT_MIN;
  }
  return out;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(boundIntegers(schema) as object);
};
