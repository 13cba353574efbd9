// What a query will cost, decided before anything runs, the way upstream decides it:
// - every connection must say how many records it wants (first or last, 0..100)
//   when it asks for records (edges or nodes);
// - node count: the sum, over connections, of first/last multiplied along the path
//   of enclosing connections; more than 500,000 refuses the query;
// - cost: one request per connection per parent record, summed, divided by 100,
//   rounded, at least 1 (upstream's "rate limit score");
// - fields and types a module marks with scopes need one of them in the token;
// - an app's token (installation or user-to-server) needs the permission of each field
//   (app-permissions.ts);
// - the shape bounds of limits.ts: selections, aliases, depth, introspection roots
//   (each introspection root costs a point: it answers the whole schema).
import {
  getArgumentValues, getDirectiveValues, getNamedType, GraphQLIncludeDirective, GraphQLSkipDirective, isAbstractType,
  isInterfaceType, isObjectType, Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLCompositeType,
  type GraphQLField, type GraphQLSchema, type OperationDefinitionNode, type SelectionNode, type SelectionSetNode,
} from 'graphql';
import { hasScope, type Actor } from '../domain/actor.ts';
import { NOT_ACCESSIBLE_BY_INTEGRATION, permissionsSatisfy } from '../http/app-permission.ts';
import { appFieldNeeds } from './app-permissions.ts';
import { MAX_PAGE_SIZE } from './connection.ts';
import { MAX_ALIASES, MAX_INTROSPECTION_ROOTS, MAX_SELECTIONS, MAX_SELECTION_DEPTH } from './limits.ts';
import { insufficientScopesMessage, preExecutionError, type ErrorContext, type WireError } from './errors.ts';

export const MAX_NODE_COUNT = 500_000;

/** Scopes, any one of which a token needs: by "Type.field", or by "Type" for all of its fields. */
export type ScopeRules = ReadonlyMap<string, readonly string[]>;

export interface QueryCost {
  nodeCount: number;
  /** Requests upstream's way: one per connection per parent record. */
  requests: number;
  cost: number;
  /** rateLimit(dryRun: true) was asked for: nothing is charged. */
  dryRun: boolean;
  errors: WireError[];
}

type Variables = Record<string, unknown>;

function included(node: SelectionNode, variables: Variables): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, variables);
  return include?.if !== false;
}

function isConnectionField(field: GraphQLField<unknown, unknown>): boolean {
  return getNamedType(field.type).name.endsWith('Connection') && field.args.some((a) => a.name === 'first');
}

export function analyzeQuery(
  schema: GraphQLSchema, fragments: Record<string, FragmentDefinitionNode>, operation: OperationDefinitionNode,
  variables: Variables, actor: Actor, scopes: ScopeRules, errorContext: ErrorContext,
): QueryCost {
  const errors: WireError[] = [];
  const seenScopeErrors = new Set<string>();
  let nodeCount = 0;
  let requests = 0;
  let dryRun = false;
  let selections = 0;
  let aliases = 0;
  let introspections = 0;
  let deepest = 0;
  /** Past a shape bound the walk stops: expanding fragments could otherwise take exponential time. */
  const overBounds = () => selections > MAX_SELECTIONS || aliases > MAX_ALIASES || deepest > MAX_SELECTION_DEPTH
    || introspections > MAX_INTROSPECTION_ROOTS;

  const fieldsOf = (set: SelectionSetNode, out: string[] = []): string[] => {
    for (const s of set.selections) {
      if (!included(s, variables)) continue;
      if (s.kind === Kind.FIELD) out.push(s.name.value);
      else if (s.kind === Kind.INLINE_FRAGMENT) fieldsOf(s.selectionSet, out);
      else if (fragments[s.name.value]) fieldsOf(fragments[s.name.value]!.selectionSet, out);
    }
    return out;
  };

  const checkScopes = (typeName: string, node: FieldNode) => {
    const accepted = scopes.get(`${typeName}.${node.name.value}`) ?? scopes.get(typeName);
    if (!accepted || hasScope(actor, ...accepted)) return;
    const message = insufficientScopesMessage(node.name.value, accepted, errorContext);
    if (seenScopeErrors.has(message)) return;
    seenScopeErrors.add(message);
    errors.push(preExecutionError('INSUFFICIENT_SCOPES', message, node));
  };

  const appToken = actor.method === 'installation' || actor.method === 'user_to_server';
  const held = actor.integration?.permissions ?? {};
  const mutationType = schema.getMutationType()?.name ?? null;
  /** False (with the error recorded once per field) when an app's token may not select the field. */
  const checkAppPermissions = (typeName: string, field: GraphQLField<unknown, unknown>, node: FieldNode): boolean => {
    if (!appToken) return true;
    const needs = appFieldNeeds(typeName, node.name.value, getNamedType(field.type).name, mutationType);
    if (needs.every((need) => permissionsSatisfy(held, need))) return true;
    const key = `${typeName}.${node.name.value}`;
    if (!seenScopeErrors.has(key)) {
      seenScopeErrors.add(key);
      errors.push(preExecutionError('FORBIDDEN', NOT_ACCESSIBLE_BY_INTEGRATION, node));
    }
    return false;
  };

  const connectionLimit = (field: GraphQLField<unknown, unknown>, node: FieldNode): number => {
    const args = getArgumentValues(field, node, variables) as { first?: number | null; last?: number | null };
    const name = node.name.value;
    for (const arg of ['first', 'last'] as const) {
      const v = args[arg];
      if (v === null || v === undefined) continue;
      if (v < 0) errors.push(preExecutionError('EXCESSIVE_PAGINATION', `\`${arg}\` on the \`${name}\` connection cannot be less than zero.`, node));
      else if (v > MAX_PAGE_SIZE) {
        errors.push(preExecutionError('EXCESSIVE_PAGINATION', `Requesting ${v} records on the \`${name}\` connection exceeds the \`${arg}\` limit of ${MAX_PAGE_SIZE} records.`, node));
      }
    }
    const limit = args.first ?? args.last ?? null;
    if (limit === null) {
      const asked = node.selectionSet ? fieldsOf(node.selectionSet) : [];
      if (asked.includes('edges') || asked.includes('nodes')) {
        errors.push(preExecutionError('MISSING_PAGINATION_BOUNDARIES', `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`, node));
      }
      return 0;
    }
    return Math.min(Math.max(limit, 0), MAX_PAGE_SIZE);
  };

  const walk = (type: GraphQLCompositeType, set: SelectionSetNode, multiplier: number, depth: number) => {
    for (const s of set.selections) {
      if (overBounds()) return;
      if (!included(s, variables)) continue;
      if (s.kind === Kind.INLINE_FRAGMENT) {
        const t = s.typeCondition ? schema.getType(s.typeCondition.name.value) : type;
        if (t && (isObjectType(t) || isInterfaceType(t) || isAbstractType(t))) walk(t as GraphQLCompositeType, s.selectionSet, multiplier, depth);
        continue;
      }
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments[s.name.value];
        const t = f ? schema.getType(f.typeCondition.name.value) : null;
        if (f && t && (isObjectType(t) || isInterfaceType(t) || isAbstractType(t))) walk(t as GraphQLCompositeType, f.selectionSet, multiplier, depth);
        continue;
      }
      selections++;
      if (s.alias) aliases++;
      if (depth + 1 > deepest) deepest = depth + 1;
      if (s.name.value === '__schema' || s.name.value === '__type') introspections++;
      if (s.name.value.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      const field = type.getFields()[s.name.value];
      if (!field) continue;
      checkScopes(type.name, s);
      // A refused field's selections are not looked at: one error says it.
      if (!checkAppPermissions(type.name, field, s)) continue;
      if (depth === 0 && s.name.value === 'rateLimit') {
        const args = getArgumentValues(field, s, variables) as { dryRun?: boolean };
        if (args.dryRun) dryRun = true;
      }
      let childMultiplier = multiplier;
      if (isConnectionField(field)) {
        const limit = connectionLimit(field, s);
        requests += multiplier;
        nodeCount += multiplier * limit;
        childMultiplier = multiplier * limit;
      }
      if (s.selectionSet) {
        const named = getNamedType(field.type);
        if (isObjectType(named) || isInterfaceType(named) || isAbstractType(named)) {
          walk(named as GraphQLCompositeType, s.selectionSet, childMultiplier, depth + 1);
        }
      }
    }
  };

  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (root) walk(root, operation.selectionSet, 1, 0);
  if (overBounds()) {
    const what = selections > MAX_SELECTIONS ? `more than ${MAX_SELECTIONS.toLocaleString('en-US')} field selections`
      : aliases > MAX_ALIASES ? `more than ${MAX_ALIASES} aliased fields`
        : deepest > MAX_SELECTION_DEPTH ? `selections nested more than ${MAX_SELECTION_DEPTH} deep`
          : `more than ${MAX_INTROSPECTION_ROOTS} introspection selections (__schema, __type)`;
    errors.push(preExecutionError('RESOURCE_LIMITS_EXCEEDED', `This query has ${what}, which exceeds the limits of one call.`));
  }
  requests += introspections * 100;
  if (nodeCount > MAX_NODE_COUNT) {
    errors.push(preExecutionError('MAX_NODE_LIMIT_EXCEEDED',
      `This query requests up to ${nodeCount.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${MAX_NODE_COUNT.toLocaleString('en-US')}.`));
  }
  return { nodeCount, requests, cost: Math.max(1, Math.round(requests / 100)), dryRun, errors };
}
