// Every type, field, argument, input field, enum value, interface and union member
// Wharf's GraphQL schema declares exists in the published schema
// (@octokit/graphql-schema) with the same kind and type, and arguments keep their
// defaults. Wharf declares a subset of upstream, never something else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType, isUnionType,
  type GraphQLArgument, type GraphQLInputField, type GraphQLNamedType,
} from 'graphql';
import { schema as published } from '@octokit/graphql-schema';
import { wharfSchema } from '../src/graphql/schema.ts';

// The package's SDL (schema.graphql), not its introspection JSON: the JSON it ships is
// older than the SDL (15.26.1's lacks the merge queue rule and fields the SDL has). The SDL
// is read without validation: it defines EnterpriseOwnerInfo.repositoryDeployKeySetting twice.
const upstream = buildSchema(published.idl, { assumeValidSDL: true });

/**
 * Deliberate differences from upstream, each with its reason ("Type", "Type.field",
 * "Type.field(arg)", "Enum.VALUE"). Keep this list short.
 */
const EXTENSIONS = new Map<string, string>([]);

function kindOf(t: GraphQLNamedType): string {
  if (isObjectType(t)) return 'object';
  if (isInterfaceType(t)) return 'interface';
  if (isUnionType(t)) return 'union';
  if (isEnumType(t)) return 'enum';
  if (isInputObjectType(t)) return 'input';
  if (isScalarType(t)) return 'scalar';
  return 'unknown';
}

/** A default value as text, an input object's fields in name order (the SDL and introspection order them differently). */
function defaultOf(a: GraphQLArgument | GraphQLInputField): string {
  const sorted = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, x]) => [k, sorted(x)]))
    : v);
  return a.defaultValue === undefined ? '(none)' : JSON.stringify(sorted(a.defaultValue));
}

function compareArguments(where: string, ours: readonly GraphQLArgument[], theirs: readonly GraphQLArgument[], problems: string[]): void {
  for (const a of ours) {
    const key = `${where}(${a.name})`;
    if (EXTENSIONS.has(key)) continue;
    const u = theirs.find((x) => x.name === a.name);
    if (!u) problems.push(`${key}: argument not in upstream`);
    else {
      if (String(a.type) !== String(u.type)) problems.push(`${key}: ${a.type}, upstream ${u.type}`);
      if (defaultOf(a) !== defaultOf(u)) problems.push(`${key}: default ${defaultOf(a)}, upstream ${defaultOf(u)}`);
    }
  }
}

test('every type, field, argument and enum value Wharf declares is upstream\'s, with the same type', () => {
  const problems: string[] = [];
  const types = Object.values(wharfSchema().schema.getTypeMap()).filter((t) => !t.name.startsWith('__'));
  assert.ok(types.length > 80, `the schema has ${types.length} types`);
  for (const ours of types) {
    if (EXTENSIONS.has(ours.name)) continue;
    const theirs = upstream.getType(ours.name);
    if (!theirs) { problems.push(`${ours.name}: type not in upstream`); continue; }
    if (kindOf(ours) !== kindOf(theirs)) { problems.push(`${ours.name}: ${kindOf(ours)}, upstream ${kindOf(theirs)}`); continue; }

    if ((isObjectType(ours) || isInterfaceType(ours)) && (isObjectType(theirs) || isInterfaceType(theirs))) {
      const upstreamInterfaces = new Set(theirs.getInterfaces().map((i) => i.name));
      for (const i of ours.getInterfaces()) {
        if (!upstreamInterfaces.has(i.name) && !EXTENSIONS.has(`${ours.name} implements ${i.name}`)) problems.push(`${ours.name}: implements ${i.name}, upstream does not`);
      }
      const fields = theirs.getFields();
      for (const f of Object.values(ours.getFields())) {
        const key = `${ours.name}.${f.name}`;
        if (EXTENSIONS.has(key)) continue;
        const u = fields[f.name];
        if (!u) { problems.push(`${key}: field not in upstream`); continue; }
        if (String(f.type) !== String(u.type)) problems.push(`${key}: ${f.type}, upstream ${u.type}`);
        compareArguments(key, f.args, u.args, problems);
      }
    } else if (isInputObjectType(ours) && isInputObjectType(theirs)) {
      const fields = theirs.getFields();
      for (const f of Object.values(ours.getFields())) {
        const key = `${ours.name}.${f.name}`;
        const u = fields[f.name];
        if (!u) problems.push(`${key}: input field not in upstream`);
        else {
          if (String(f.type) !== String(u.type)) problems.push(`${key}: ${f.type}, upstream ${u.type}`);
          if (defaultOf(f) !== defaultOf(u)) problems.push(`${key}: default ${defaultOf(f)}, upstream ${defaultOf(u)}`);
        }
      }
      // A required input field upstream has must be required here too, or upstream's clients could omit it.
      for (const u of Object.values(fields)) {
        if (String(u.type).endsWith('!') && u.defaultValue === undefined && !ours.getFields()[u.name]) problems.push(`${ours.name}.${u.name}: required upstream, missing`);
      }
    } else if (isEnumType(ours) && isEnumType(theirs)) {
      for (const v of ours.getValues()) {
        if (!theirs.getValue(v.name) && !EXTENSIONS.has(`${ours.name}.${v.name}`)) problems.push(`${ours.name}.${v.name}: enum value not in upstream`);
      }
    } else if (isUnionType(ours) && isUnionType(theirs)) {
      const members = new Set(theirs.getTypes().map((t) => t.name));
      for (const m of ours.getTypes()) if (!members.has(m.name)) problems.push(`${ours.name}: member ${m.name} not in upstream`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the roots the spec names are there', () => {
  const { schema } = wharfSchema();
  const query = schema.getQueryType()!.getFields();
  for (const root of ['viewer', 'user', 'organization', 'repository', 'repositoryOwner', 'search', 'rateLimit', 'meta', 'node', 'nodes']) {
    assert.ok(query[root], `Query.${root}`);
  }
  const mutation = schema.getMutationType()!.getFields();
  for (const m of ['createRef', 'updateRef', 'deleteRef', 'createRepository', 'createCommitOnBranch']) {
    assert.ok(mutation[m], `Mutation.${m}`);
    assert.equal(String(mutation[m]!.args[0]!.type), `${m[0]!.toUpperCase()}${m.slice(1)}Input!`);
    assert.equal(String(mutation[m]!.type), `${m[0]!.toUpperCase()}${m.slice(1)}Payload`);
  }
});
