// Typed domain errors. Services throw these; they know nothing of HTTP.
// src/http/errors.ts renders them as the spec's error body, GraphQL as its errors.

export type ValidationCode =
  | 'missing' | 'missing_field' | 'invalid' | 'already_exists' | 'unprocessable' | 'custom';

export interface FieldError {
  resource: string;
  field: string;
  code: ValidationCode;
  message?: string;
  value?: unknown;
}

export abstract class DomainError extends Error {
  /** Stable machine id of the error kind. */
  abstract readonly kind: string;
}

/** The resource does not exist, or the caller may not know that it does. */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(message = 'Not Found') { super(message); }
}

/** Input failed validation; `errors` lists each problem. */
export class ValidationError extends DomainError {
  readonly kind = 'validation';
  constructor(readonly errors: FieldError[], message = 'Validation Failed') { super(message); }

  static field(resource: string, field: string, code: ValidationCode, message?: string): ValidationError {
    return new ValidationError([{ resource, field, code, ...(message ? { message } : {}) }]);
  }

  /** A line per field error, as a form shows them inline: its message, or which field and why. */
  messages(): string[] {
    return this.errors.map((e) => e.message ?? `${e.field} is ${e.code}`);
  }
}

/** The request is understood but refused (missing rights, not allowed now). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(message = 'Forbidden') { super(message); }
}

/** The caller's token lacks an OAuth scope the operation needs. */
export class MissingScopeError extends DomainError {
  readonly kind = 'missing_scope';
  constructor(readonly acceptedScopes: string[], message?: string) {
    super(message ?? `This operation needs the ${acceptedScopes.map((s) => `"${s}"`).join(' or ')} scope.`);
  }
}

/** No credentials where they are required. */
export class AuthenticationRequiredError extends DomainError {
  readonly kind = 'authentication_required';
  constructor(message = 'Requires authentication') { super(message); }
}

/** Credentials were given but are not valid. */
export class BadCredentialsError extends DomainError {
  readonly kind = 'bad_credentials';
  constructor(message = 'Bad credentials') { super(message); }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict';
  constructor(message = 'Conflict') { super(message); }
}

export class GoneError extends DomainError {
  readonly kind = 'gone';
  constructor(message = 'Gone') { super(message); }
}

/** The operation is refused in the resource's present state (upstream answers 405: a pull request that cannot be merged). */
export class NotAllowedError extends DomainError {
  readonly kind = 'not_allowed';
  constructor(message = 'Method Not Allowed') { super(message); }
}

/** The request itself is malformed in a way that is not a field validation. */
export class BadRequestError extends DomainError {
  readonly kind = 'bad_request';
  /** `detail` names the problem kind where a protocol has such names (SCIM's scimType: invalidFilter, noTarget …). */
  constructor(message: string, readonly detail?: string) { super(message); }
}

/**
 * Points the client at the resource's new address (renames). With `rewrite`, the
 * request's own path is kept with its `from` prefix replaced by `to`, so that
 * sub-resources (/repos/old/x/issues) move along.
 */
export class MovedPermanentlyError extends DomainError {
  readonly kind = 'moved_permanently';
  constructor(readonly location: string, readonly rewrite?: { from: string; to: string }, message = 'Moved Permanently') { super(message); }
}

/**
 * The caller's token is not authorized for the SAML single sign-on of the organization
 * that owns the resource: a 403 whose SSO header points at `authorizationUrl`, where the
 * user authorizes it after signing in at the identity provider.
 */
export class SsoRequiredError extends ForbiddenError {
  constructor(readonly authorizationUrl: string) {
    super('Resource protected by organization SAML enforcement. You must grant your Personal Access token access to this organization.');
  }
}
