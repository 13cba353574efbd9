// Schema validation: query strings and path params are coerced from text; bodies are
// not (a "true" string is not a boolean), as upstream checks them.
import { Ajv, type Options, type ValidateFunction } from 'ajv';
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

/** Each schema object bounded once: ajv then finds its compiled function by identity. */
const bounded = new WeakMap<object, object>();

function boundedOf(schema: object): object {
  let b = bounded.get(schema);
  if (!b) {
    b = boundIntegers(schema) as object;
    bounded.set(schema, b);
  }
  return b;
}

/**
 * Outside production a validator is compiled on its first use, not when the route is
 * registered: a test server starts with ~700 routes and a test file calls few of them,
 * and compiling them all was most of a start's time. Production compiles at start, so
 * a schema ajv cannot compile stops the server at once.
 */
const LAZY = process.env.NODE_ENV !== 'production';

/** A validator compiled now, whatever the environment (tests check every route's schemas compile). */
export function compileValidator(schema: object, httpPart: string): ValidateFunction {
  return (httpPart === 'body' ? bodyAjv : textAjv).compile(boundedOf(schema));
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  if (!LAZY) return ajv.compile(boundedOf(schema as object));
  let compiled: ValidateFunction | null = null;
  const validate = (data: unknown): boolean => {
    compiled ??= ajv.compile(boundedOf(schema as object));
    const ok = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return ok;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate;
};
