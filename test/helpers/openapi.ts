// Checks response bodies against the published OpenAPI description of the same
// operation (npm @octokit/openapi): api.github.com, or GHES for the admin API.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;
/** 'removed': endpoints since removed upstream, from an older @octokit/openapi (test/fixtures/openapi-removed.json). */
export type Description = 'api.github.com' | 'ghes-3.19' | 'removed';

const require = createRequire(import.meta.url);
const docs = new Map<Description, { doc: Json; ajv: Ajv }>();
const compiled = new Map<string, ValidateFunction>();
const SPEC_ID = 'https://openapi.invalid/spec';

/** OpenAPI 3.0 `nullable: true` → JSON Schema's null type, everywhere in the document. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'discriminator' || k === 'example' || k === 'examples') continue;
    out[k] = toJsonSchema(v);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string' && !out.$ref && !out.allOf && !out.anyOf && !out.oneOf) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

function load(which: Description) {
  let entry = docs.get(which);
  if (!entry) {
    const raw = require(which === 'removed' ? '../fixtures/openapi-removed.json' : `@octokit/openapi/generated/${which}.json`) as Json;
    const doc = toJsonSchema(raw) as Json;
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: SPEC_ID, components: doc.components });
    entry = { doc, ajv };
    docs.set(which, entry);
  }
  return entry;
}

function resolveResponse(doc: Json, response: Json): Json {
  const ref = response.$ref as string | undefined;
  if (!ref) return response;
  const name = ref.split('/').pop()!;
  return ((doc.components as Json).responses as Json)[name] as Json;
}

/** Asserts that `body` is what the published description says `METHOD path` answers with `status`. */
export function assertMatchesOpenApi(method: string, pathTemplate: string, status: number, body: unknown, which: Description = 'api.github.com'): void {
  const key = `${which} ${method} ${pathTemplate} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const { doc, ajv } = load(which);
    const op = ((doc.paths as Json)[pathTemplate] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    assert.ok(op, `no operation ${method} ${pathTemplate} in ${which}`);
    const response = (op.responses as Json)[String(status)] as Json | undefined;
    assert.ok(response, `no ${status} response for ${method} ${pathTemplate} in ${which}`);
    const schema = (((resolveResponse(doc, response).content as Json)['application/json'] as Json).schema) as Json;
    validate = ajv.compile({ $id: `https://openapi.invalid/check/${compiled.size}`, ...rewriteRefs(schema) as Json });
    compiled.set(key, validate);
  }
  const ok = validate(body);
  assert.ok(ok, `${method} ${pathTemplate} ${status} does not match ${which}: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${SPEC_ID}${v}` : rewriteRefs(v);
  }
  return out;
}
