// Remembered git answers (src/git/object-memo.ts): bounded by count, and where an answer
// can be large, by the bytes the answers hold.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectMemo } from '../src/git/object-memo.ts';

const id = (n: number) => n.toString(16).padStart(40, '0');

describe('ObjectMemo', () => {
  test('bounded by bytes: the oldest answers go once the bytes held pass the bound, however few they are', async () => {
    const memo = new ObjectMemo<string>(100, { sizeOf: (s) => s.length, maxBytes: 8000 });
    let computed = 0;
    const read = (n: number) => memo.get('/repo', [id(n)], async () => { computed++; return 'x'.repeat(1000); });
    for (let n = 1; n <= 10; n++) await read(n);
    assert.ok(memo.heldBytes <= 8000, `${memo.heldBytes} bytes held`);
    assert.equal(memo.size, 8);
    computed = 0;
    await read(10);
    assert.equal(computed, 0, 'the newest is remembered');
    await read(1);
    assert.equal(computed, 1, 'the oldest is not');
  });

  test('an answer larger than an eighth of the bound is not remembered', async () => {
    const memo = new ObjectMemo<string>(100, { sizeOf: (s) => s.length, maxBytes: 8000 });
    let computed = 0;
    const read = () => memo.get('/repo', [id(1)], async () => { computed++; return 'x'.repeat(1001); });
    await read();
    await read();
    assert.equal(computed, 2);
    assert.equal(memo.size, 0);
    assert.equal(memo.heldBytes, 0);
  });

  test('bounded by count alone without sizeOf; failures are forgotten', async () => {
    const memo = new ObjectMemo<string>(2);
    for (let n = 1; n <= 3; n++) await memo.get('/repo', [id(n)], async () => 'x'.repeat(100_000));
    assert.equal(memo.size, 2);
    let tries = 0;
    const failing = () => memo.get('/repo', [id(9)], async () => { tries++; throw new Error('git failed'); });
    await assert.rejects(failing());
    await assert.rejects(failing());
    assert.equal(tries, 2);
  });
});
