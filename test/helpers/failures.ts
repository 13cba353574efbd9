// Asserting that an Octokit call fails with a given status.
import assert from 'node:assert/strict';

export interface ErrorBody {
  message: string;
  documentation_url?: string;
  errors?: { resource: string; field: string; code: string; message?: string }[];
}

/** Awaits a call that must fail with `status`; returns the error body. */
export async function failsWith(call: Promise<unknown>, status: number): Promise<ErrorBody> {
  try {
    await call;
  } catch (e) {
    const err = e as { status?: number; response?: { data?: unknown } };
    assert.equal(err.status, status, `expected ${status}, got ${err.status}: ${JSON.stringify(err.response?.data)}`);
    return (err.response?.data ?? {}) as ErrorBody;
  }
  assert.fail(`expected a ${status} failure, the call succeeded`);
}

export interface Failure {
  status: number;
  message: string;
}

export interface FailureWithErrors extends Failure {
  /** The error body's errors[] (undefined when it has none). */
  errors?: { field: string; code: string }[];
}

/** The status and error body of an Octokit call (or its promise) that must fail. */
async function failed(call: Promise<unknown> | (() => Promise<unknown>)): Promise<FailureWithErrors> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (err) {
    const e = err as { status?: number; response?: { data?: { message: string; errors?: FailureWithErrors['errors'] } } };
    assert.ok(typeof e.status === 'number' && e.response?.data, String(err));
    return { status: e.status, message: e.response.data.message, errors: e.response.data.errors };
  }
  assert.fail('the call succeeded');
}

/** The status and message of an Octokit call that must fail (compared whole by suites). */
export async function failure(call: Promise<unknown> | (() => Promise<unknown>)): Promise<Failure> {
  const { status, message } = await failed(call);
  return { status, message };
}

/** The status, message and errors[] of an Octokit call that must fail. */
export async function failureWithErrors(call: Promise<unknown> | (() => Promise<unknown>)): Promise<FailureWithErrors> {
  return failed(call);
}
