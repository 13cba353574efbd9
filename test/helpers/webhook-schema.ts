// Checks webhook payloads against the published schemas (npm @octokit/openapi-webhooks):
// the request body schema of the event (and action), with every $ref resolved.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;

const require = createRequire(import.meta.url);
const SPEC_ID = 'https://openapi-webhooks.invalid/spec';
let doc: Json | null = null;
let ajv: Ajv | null = null;
const compiled = new Map<string, ValidateFunction>();

function load(): { doc: Json; ajv: Ajv } {
  if (!doc || !ajv) {
    doc = require('@octokit/openapi-webhooks/generated/api.github.com.json') as Json;
    // Formats are not checked: the schemas use OpenAPI ones (uri-template …) Ajv does not know.
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: SPEC_ID, components: rewriteRefs(doc.components) });
  }
  return { doc, ajv };
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

/** The published webhook name of an event: push, ping, repository-created, issue-comment-edited … */
export function webhookName(event: string, action: string | null | undefined): string {
  const base = event.replace(/_/g, '-');
  return action ? `${base}-${action.replace(/_/g, '-')}` : base;
}

/** Asserts that `payload` is what the published schema says the event (and action) sends. */
export function assertMatchesWebhookSchema(event: string, action: string | null | undefined, payload: unknown): void {
  const name = webhookName(event, action);
  let validate = compiled.get(name);
  if (!validate) {
    const { doc: d, ajv: a } = load();
    const hook = (d.webhooks as Json)[name] as Json | undefined;
    assert.ok(hook, `no webhook ${name} in @octokit/openapi-webhooks`);
    const body = ((hook.post as Json).requestBody as Json).content as Json;
    const schema = (body['application/json'] as Json).schema as Json;
    validate = a.compile({ $id: `https://openapi-webhooks.invalid/check/${name}`, ...(rewriteRefs(schema) as Json) });
    compiled.set(name, validate);
  }
  const ok = validate(payload);
  assert.ok(ok, `${name} payload does not match the published schema: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
}
