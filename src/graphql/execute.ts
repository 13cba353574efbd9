// One GraphQL call, from query text to response body: parse and validate (cached by
// query text), pick the one operation, coerce variables, check scopes, pagination
// and cost before anything runs, charge the caller's graphql budget, execute.
import {
  getOperationAST, getVariableValues, GraphQLError, Kind, parse, visit,
  type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { AppContext } from '../context.ts';
import type { Actor, ActorUser } from '../domain/actor.ts';
import { epochSeconds } from '../domain/clock.ts';
import { budgetFor } from '../http/rate-limit.ts';
import type { Counter, RateLimitStore } from '../http/rate-limit-store.ts';
import type { AnswerCache } from '../http/answer-cache.ts';
import { graphqlAnswerKey, watchedContext, watchedRate, type Watch } from './answers.ts';
import { analyzeQuery } from './cost.ts';
import { KeptByText } from './kept-by-text.ts';
import { MAX_RESPONSE_CHARS, MAX_TEXT_NESTING, textNesting, textSize } from './limits.ts';
import type { GraphQLContext, RateInfo } from './context.ts';
import { plainError, preExecutionError, wireError, type ErrorContext, type WireError } from './errors.ts';
import { newLoaderCache } from './loaders.ts';
import { callContext, countingStatements } from './statement-counter.ts';
import type { WharfSchema } from './schema.ts';
import { nulField } from '../http/body.ts';
import { isDatabaseUnavailable, isStorageFull } from '../db/failures.ts';
import { validateQuery } from './validation.ts';

export interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | null;
}

export interface GraphQLResponse {
  body: { data?: unknown; errors?: WireError[] };
  /** The body as sent, when it was kept or is to be (answers.ts): sent as it is. */
  serialized?: Buffer;
  /** The graphql budget after this call (for the X-RateLimit-* headers). */
  counter: Counter;
  limit: number;
  bucket: string;
}

interface Prepared {
  document: DocumentNode | null;
  fragments: Record<string, FragmentDefinitionNode>;
  errors: WireError[];
}

/**
 * Parsed and validated documents by query text: clients send the same few queries again and
 * again. At most 1,000, holding 4 million characters of text, none longer than 200,000
 * (kept-by-text.ts: a document's nodes and tokens grow with its text).
 */
const prepared = new KeptByText<Prepared>(1000, 4_000_000, 200_000);
/**
 * Operations compiled to JavaScript (graphql-jit), by schema and operation: executing a
 * compiled query does half the work of graphql-js's interpreter on lists of records
 * (per-field bookkeeping and the garbage it leaves were most of a 100-issue query's
 * time). Compiling costs a few milliseconds, once per distinct operation; clients send the
 * same few again and again. Fewer are kept than parsed documents: each holds its code (at
 * most 300, holding 2 million characters of text).
 * Abstract types resolve by `__typename`, as graphql-js's default type resolver does.
 */
const compiledOperations = new WeakMap<WharfSchema, KeptByText<CompiledQuery>>();

function compiled(
  api: WharfSchema, query: string, document: DocumentNode, operation: OperationDefinitionNode, operationName: string | null,
  variables: Record<string, unknown>,
): CompiledQuery {
  let byText = compiledOperations.get(api);
  if (!byText) compiledOperations.set(api, byText = new KeptByText(300, 2_000_000, 200_000));
  const absent = absentVariables(operation, variables);
  const key = `${operationName ?? ''}\u0000${absent.join(',')}\u0000${query}`;
  let c = byText.get(key);
  if (!c) {
    const source = absent.length ? withoutFieldsOf(document, new Set(absent)) : document;
    const made = compileQuery(api.schema, source, operationName ?? undefined, { disablingCapturingStackErrors: true });
    // The document was validated (prepare) and its operation picked: compiling cannot refuse it.
    if (!isCompiledQuery(made)) throw new Error(`graphql-jit refused a validated operation: ${made.errors?.map((e) => e.message).join('; ')}`);
    c = made;
    byText.set(key, c);
  }
  return c;
}
/** The operation's variables the request left out that have no default, by name, sorted. */
function absentVariables(operation: OperationDefinitionNode, variables: Record<string, unknown>): string[] {
  const absent: string[] = [];
  for (const d of operation.variableDefinitions ?? []) {
    const name = d.variable.name.value;
    if (!d.defaultValue && !Object.prototype.hasOwnProperty.call(variables, name)) absent.push(name);
  }
  return absent.sort();
}

/**
 * graphql-jit gives a variable the request left out the value null where it stands in an
 * input object literal (`filterBy: {assignee: $assignee}`), where the GraphQL spec (and
 * graphql-js) leave the field out: and Wharf's resolvers, as upstream's, read a field
 * set to null as "set to none" (unassigned, no milestone, a body cleared), not as "not
 * given". Those fields are taken out of the document before it is compiled, which is the
 * spec's reading; the compiled operation is kept per set of variables left out.
 */
function withoutFieldsOf(document: DocumentNode, absent: ReadonlySet<string>): DocumentNode {
  return visit(document, {
    ObjectField: (field) => (field.value.kind === Kind.VARIABLE && absent.has(field.value.name.value) ? null : undefined),
  });
}

/** Upstream refuses very large documents; a token budget keeps parsing bounded. */
const MAX_TOKENS = 50_000;

function prepare(api: WharfSchema, query: string): Prepared {
  const cached = prepared.get(query);
  if (cached) return cached;
  let result: Prepared;
  if (textNesting(query) > MAX_TEXT_NESTING) {
    // Refused before parsing: graphql-js parses recursively and would overflow its stack.
    return { document: null, fragments: {}, errors: [preExecutionError('RESOURCE_LIMITS_EXCEEDED', `The query nests more than ${MAX_TEXT_NESTING} levels deep.`)] };
  }
  try {
    const document = parse(query, { maxTokens: MAX_TOKENS });
    const errors = validateQuery(api.schema, document).map(plainError);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    result = { document: errors.length ? null : document, fragments, errors };
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    result = { document: null, fragments: {}, errors: [plainError(err)] };
  }
  prepared.set(query, result);
  return result;
}

function pickOperation(document: DocumentNode, operationName: string | null): OperationDefinitionNode | WireError {
  const op = getOperationAST(document, operationName);
  if (op) {
    if (op.operation === 'subscription') return { message: 'Subscriptions are not supported.' };
    return op;
  }
  if (operationName) return { message: `No operation named "${operationName}"` };
  return { message: 'An operation name is required when the document holds more than one operation.' };
}

export interface Caller {
  ctx: AppContext;
  actor: Actor;
  user: ActorUser;
  rates: RateLimitStore;
  errorContext: ErrorContext;
  /** Where query answers are kept (answers.ts); null where they are not (PostgreSQL). */
  answers: AnswerCache | null;
}

export async function runGraphQL(api: WharfSchema, caller: Caller, req: GraphQLRequest): Promise<GraphQLResponse> {
  const { ctx, actor, rates } = caller;
  const budget = budgetFor(actor, 'graphql', ctx.config.rateLimit);
  const now = epochSeconds(ctx.clock);
  const refuse = async (errors: WireError[]): Promise<GraphQLResponse> => ({
    body: { errors }, counter: await rates.peek(budget.bucket, now, budget.windowSeconds), limit: budget.limit, bucket: budget.bucket,
  });

  // As on REST (src/http/body.ts): text with NUL cannot be stored, so it is refused up front.
  const nul = /\0|\\u0000/.test(req.query) ? 'query' : nulField(req.variables);
  if (nul !== null) return refuse([preExecutionError('UNPROCESSABLE', `${nul} must not contain NUL characters`)]);
  const p = prepare(api, req.query);
  const document = p.document;
  if (!document) return refuse(p.errors);
  const operation = pickOperation(document, req.operationName);
  if (!('kind' in operation)) return refuse([operation]);
  const coerced = getVariableValues(api.schema, operation.variableDefinitions ?? [], req.variables, { maxErrors: 50 });
  if (coerced.errors) return refuse(coerced.errors.map(plainError));

  const cost = analyzeQuery(api.schema, p.fragments, operation, coerced.coerced, actor, api.scopes, caller.errorContext);
  if (cost.errors.length) return refuse(cost.errors);

  let counter: Counter;
  if (cost.dryRun) {
    counter = await rates.peek(budget.bucket, now, budget.windowSeconds);
  } else {
    // Charged first and given back when over the budget: one atomic step, so parallel
    // calls cannot all read the same remainder and all run.
    counter = await rates.hit(budget.bucket, now, budget.windowSeconds, cost.cost);
    if (counter.used > budget.limit) {
      await rates.refund(budget.bucket, counter.resetAt, cost.cost);
      counter = { ...counter, used: counter.used - cost.cost };
      return {
        body: { errors: [preExecutionError('RATE_LIMITED', `API rate limit exceeded for user ID ${caller.user.id}.`)] },
        counter, limit: budget.limit, bucket: budget.bucket,
      };
    }
  }
  const answers = operation.operation === 'query' && !countingStatements(ctx) ? caller.answers : null;
  const key = answers ? graphqlAnswerKey(actor, req) : '';
  const kept = answers?.lookup(key);
  if (kept) return { body: {}, serialized: kept.body, counter, limit: budget.limit, bucket: budget.bucket };
  const slot = answers?.slot(key);
  const watch: Watch = { touched: false };
  const rate: RateInfo = { limit: budget.limit, cost: cost.cost, nodeCount: cost.nodeCount, used: counter.used, resetAt: counter.resetAt };
  const g: GraphQLContext = {
    ctx: watchedContext(callContext(ctx), watch), actor, user: caller.user, rate: watchedRate(rate, watch), loaders: newLoaderCache(),
  };
  const result = await compiled(api, req.query, document, operation, req.operationName, req.variables).query(undefined, g, req.variables);
  // The database went away under the call, or the disk is full: answered as REST
  // answers it (503 with Retry-After, 507; http/errors.ts), so that clients try again
  // later rather than read a 200 with null data as the query's answer. Not when a
  // mutation's field has done its work: a retry would do it twice, so the answer
  // reports what was done (errors.ts).
  const failed = result.errors?.find((e) => isDatabaseUnavailable(e.originalError) || isStorageFull(e.originalError));
  if (failed && (operation.operation !== 'mutation' || !anyFieldDone(result.data))) throw failed.originalError;
  if (textSize(result.data) + textSize(result.errors?.map((e) => e.message)) > MAX_RESPONSE_CHARS) {
    const message = `The response would carry more than ${MAX_RESPONSE_CHARS.toLocaleString('en-US')} characters of text; ask for fewer records or fields.`;
    return { body: { data: null, errors: [preExecutionError('RESOURCE_LIMITS_EXCEEDED', message)] }, counter, limit: budget.limit, bucket: budget.bucket };
  }
  const body: GraphQLResponse['body'] = { data: result.data ?? null };
  if (result.errors?.length) body.errors = result.errors.map((e) => wireError(e, caller.errorContext));
  if (!answers || !slot || watch.touched || body.errors) return { body, counter, limit: budget.limit, bucket: budget.bucket };
  const serialized = Buffer.from(JSON.stringify(body));
  answers.store(slot, { headers: {}, body: serialized, etag: '', lastModified: null });
  return { body, serialized, counter, limit: budget.limit, bucket: budget.bucket };
}

/** Some top-level field of the operation answered (a mutation's: did its work). */
function anyFieldDone(data: Record<string, unknown> | null | undefined): boolean {
  return Object.values(data ?? {}).some((v) => v !== null && v !== undefined);
}
