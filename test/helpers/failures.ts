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
