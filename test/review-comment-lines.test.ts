// How a review comment's line moves through a diff between two heads (lineCarrier): lines
// below a hunk shift by what it added or removed, a line inside a hunk keeps its place
// only as unchanged context, a removed or replaced line has none. Pure: hunks as git
// writes them, including the empty ranges of insertions and deletions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lineCarrier } from '../src/modules/pulls/review-comments.positions.ts';

const carried = (patch: string, lines: number[]) => lines.map(lineCarrier(patch));

describe('review comment lines carried through a diff', () => {
  test('context lines map, a replaced line is gone, lines below shift by the hunk', () => {
    const patch = '@@ -1,5 +1,6 @@\n one\n+new\n two\n-three\n+THREE\n four\n five';
    assert.deepEqual(carried(patch, [1, 2, 3, 4, 5, 6, 9]), [1, 3, null, 5, 6, 7, 10]);
  });

  test('empty ranges: lines inserted at the top, lines deleted in the middle', () => {
    assert.deepEqual(carried('@@ -0,0 +1,2 @@\n+a\n+b', [1, 2]), [3, 4]);
    assert.deepEqual(carried('@@ -3,2 +2,0 @@\n-x\n-y', [1, 2, 3, 4, 5]), [1, 2, null, null, 3]);
  });

  test('several hunks: the shift of the last hunk above applies; lines between hunks untouched by either', () => {
    const patch = '@@ -1,2 +1,3 @@\n a\n+b\n c\n@@ -10,2 +11,1 @@\n j\n-k';
    assert.deepEqual(carried(patch, [1, 2, 5, 10, 11, 12, 20]), [1, 3, 6, 11, null, 12, 20]);
  });
});
