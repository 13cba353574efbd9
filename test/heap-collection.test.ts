// When Wharf's process collects its heap itself (src/heap-collection.ts): only when the
// event loop has been quiet, and only with enough garbage above what was left alive.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { worthCollecting } from '../src/heap-collection.ts';

const MB = 1024 * 1024;

describe('collecting the heap when quiet', () => {
  test('quiet, with tens of megabytes above what is alive: collect', () => {
    assert.equal(worthCollecting(0.01, 200 * MB, 80 * MB), true);
  });

  test('busy: never, whatever the heap holds (V8 collects under load itself)', () => {
    assert.equal(worthCollecting(0.5, 400 * MB, 80 * MB), false);
    assert.equal(worthCollecting(0.06, 400 * MB, 80 * MB), false);
  });

  test('quiet with little garbage: not worth a full collection', () => {
    assert.equal(worthCollecting(0, 100 * MB, 80 * MB), false);
    // A quarter of a large live set at least.
    assert.equal(worthCollecting(0, 460 * MB, 400 * MB), false);
    assert.equal(worthCollecting(0, 500 * MB, 400 * MB), true);
  });
});
