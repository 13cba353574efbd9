// What GraphQL keeps per query text (parsed documents, compiled operations) is bounded by
// the text held, not only by count (src/graphql/kept-by-text.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KeptByText } from '../src/graphql/kept-by-text.ts';

describe('KeptByText', () => {
  test('the oldest go once the text held passes the bound, however few the entries', () => {
    const kept = new KeptByText<number>(100, 1000, 600);
    kept.set('a'.repeat(400), 1);
    kept.set('b'.repeat(400), 2);
    kept.set('c'.repeat(400), 3);
    assert.equal(kept.size, 2);
    assert.equal(kept.get('a'.repeat(400)), undefined);
    assert.equal(kept.get('c'.repeat(400)), 3);
  });

  test('a text longer than an entry may be is not kept; the count still bounds short ones', () => {
    const kept = new KeptByText<number>(2, 10_000, 600);
    kept.set('x'.repeat(601), 1);
    assert.equal(kept.size, 0);
    kept.set('p', 1);
    kept.set('q', 2);
    kept.set('p', 3);
    kept.set('r', 4);
    assert.deepEqual([kept.get('p'), kept.get('q'), kept.get('r')], [3, undefined, 4]);
  });
});
