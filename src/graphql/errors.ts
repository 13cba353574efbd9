// GraphQL errors in upstream's shape: {type, path, locations, message}. Resolvers
// throw domain errors (from the services) or GraphQLApiError (for GraphQL's own
// rules); both become one entry of `errors` here. Details of unexpected failures
// never reach the client.
import { GraphQLError } from 'graphql';
import {
  AuthenticationRequiredError, BadRequestError, ConflictError, DomainError, ForbiddenError, GoneError,
  MissingScopeError, MovedPermanentlyError, NotAllowedError, NotFoundError, ValidationError,
} from '../domain/errors.ts';
import { isDatabaseUnavailable, isStorageFull } from '../db/failures.ts';

/** The error types upstream reports in `errors[].type`. */
export type GraphQLErrorType =
  | 'NOT_FOUND' | 'FORBIDDEN' | 'INSUFFICIENT_SCOPES' | 'UNPROCESSABLE' | 'STALE_DATA'
  | 'MISSING_PAGINATION_BOUNDARIES' | 'EXCESSIVE_PAGINATION' | 'INVALID_CURSOR_ARGUMENTS'
  | 'MAX_NODE_LIMIT_EXCEEDED' | 'RESOURCE_LIMITS_EXCEEDED' | 'RATE_LIMITED';

/** An error of GraphQL's own rules (not a service's), with its upstream type. */
export class GraphQLApiError extends Error {
  constructor(readonly type: GraphQLErrorType, message: string) { super(message); }
}

export function notFound(message: string): GraphQLApiError {
  return new GraphQLApiError('NOT_FOUND', message);
}

/** "a Repository", "an Organization": upstream's article before a type name. */
/** Null where the service says the caller may not see it (a field that is null when hidden, as REST's 404). */
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/**
 * Runs a mutation's service call; a refusal for lack of rights on the repository ("Must
 * have push access …") is reported as upstream words it ("alice does not have the correct
 * permissions to execute `MergePullRequest`"). Other refusals (archived, locked,
 * interaction limits) keep the service's words.
 */
export async function asMutation<T>(g: { user: { login: string } }, name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ForbiddenError && /^Must have /.test(err.message)) {
      throw new GraphQLApiError('FORBIDDEN', `${g.user.login} does not have the correct permissions to execute \`${name}\``);
    }
    throw err;
  }
}

export function withArticle(typeName: string): string {
  return `${/^[AEIOU]/.test(typeName) ? 'an' : 'a'} ${typeName}`;
}

export interface WireError {
  type?: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  message: string;
}

export interface ErrorContext {
  /** Scopes of the caller's token, as granted (INSUFFICIENT_SCOPES names them). */
  grantedScopes: readonly string[];
  baseUrl: string;
  requestId: string;
  logError(err: unknown): void;
}

/** Upstream's wording for a field the token's scopes do not reach. */
export function insufficientScopesMessage(field: string, accepted: readonly string[], c: ErrorContext): string {
  const list = (xs: readonly string[]) => `[${xs.map((s) => `'${s}'`).join(', ')}]`;
  return `Your token has not been granted the required scopes to execute this query. The '${field}' field requires one of the following scopes: ${list(accepted)}, but your token has only been granted the: ${list(c.grantedScopes)} scopes. Please modify your token's scopes at: ${c.baseUrl}/settings/tokens.`;
}

function typeOfDomainError(err: DomainError): GraphQLErrorType | null {
  if (err instanceof NotFoundError || err instanceof GoneError || err instanceof MovedPermanentlyError) return 'NOT_FOUND';
  if (err instanceof MissingScopeError) return 'INSUFFICIENT_SCOPES';
  if (err instanceof ForbiddenError || err instanceof AuthenticationRequiredError) return 'FORBIDDEN';
  if (err instanceof ValidationError || err instanceof ConflictError || err instanceof BadRequestError || err instanceof NotAllowedError) return 'UNPROCESSABLE';
  return null;
}

/** A validation error's message with what each field error says, as one sentence. */
function validationMessage(err: ValidationError): string {
  const details = err.errors.map((e) => e.message ?? `${e.field} ${e.code === 'missing_field' ? 'is missing' : e.code.replace(/_/g, ' ')}`);
  const unique = [...new Set(details)].filter((d) => d !== err.message);
  return unique.length ? unique.join('; ') : err.message;
}

function located(err: GraphQLError): Pick<WireError, 'path' | 'locations'> {
  return {
    ...(err.path ? { path: err.path } : {}),
    ...(err.locations ? { locations: err.locations.map((l) => ({ line: l.line, column: l.column })) } : {}),
  };
}

/** One entry of `errors`, with keys in upstream's order. */
export function wireError(err: GraphQLError, c: ErrorContext): WireError {
  const original = err.originalError;
  if (original instanceof GraphQLApiError) return { type: original.type, ...located(err), message: original.message };
  if (original instanceof DomainError) {
    const type = typeOfDomainError(original);
    if (type) {
      let message = original.message;
      if (original instanceof MissingScopeError) {
        const field = [...(err.path ?? [])].reverse().find((p): p is string => typeof p === 'string') ?? 'query';
        message = insufficientScopesMessage(field, original.acceptedScopes, c);
      } else if (original instanceof ValidationError) {
        message = validationMessage(original);
      } else if (original instanceof NotFoundError && message === 'Not Found') {
        message = 'Could not resolve to a node.';
      }
      return { type, ...located(err), message };
    }
  }
  if (original && isDatabaseUnavailable(original)) {
    // Only in a mutation's answer whose other fields did their work (execute.ts): no bug to report.
    c.logError(original);
    return { ...located(err), message: 'The database could not be reached; this field was not resolved. Try again later.' };
  }
  if (original && isStorageFull(original)) {
    c.logError(original);
    return { ...located(err), message: 'No space was left to store this; this field was not resolved. Try again later.' };
  }
  if (original && !(original instanceof GraphQLError)) {
    c.logError(original);
    return { ...located(err), message: `Something went wrong while executing your query. Please include \`${c.requestId}\` when reporting this issue.` };
  }
  return plainError(err);
}

/** A GraphQL error of graphql-js itself (syntax, validation, variables): its message and where. */
export function plainError(err: GraphQLError): WireError {
  return { ...located(err), message: err.message };
}

/** An error raised before execution (validation, pagination, cost), located at a field. */
export function preExecutionError(type: GraphQLErrorType | null, message: string, node?: { loc?: { startToken: { line: number; column: number } } }, path?: (string | number)[]): WireError {
  const loc = node?.loc?.startToken;
  return {
    ...(type ? { type } : {}),
    ...(path ? { path } : {}),
    ...(loc ? { locations: [{ line: loc.line, column: loc.column }] } : {}),
    message,
  };
}
