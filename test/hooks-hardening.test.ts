// Issue #11, findings 10 and 11 (webhooks): a crashed process's delivery claims are due
// again after one lease and go out before the hook's later events; a batch that outlasts
// its lease keeps its claims while its process lives; webhook secrets are sealed at rest
// with the server's secret key (WHARF_SECRET_KEY or $WHARF_DATA_DIR/secret.key), and
// deliveries stay signed across restarts.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { verify } from '@octokit/webhooks-methods';
import { dropPgSchema, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { eventually, headerOf, Receiver, ReceiverPool, type Answer, type Received } from './helpers/webhook-receiver.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { isSealed, parseSecretKey, SecretBox, SecretKeyError } from '../src/domain/secret-box.ts';

const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1',
  WHARF_WEBHOOK_RETRY_BASE_MS: '100',
  WHARF_WEBHOOK_MAX_ATTEMPTS: '3',
  WHARF_WEBHOOK_TIMEOUT_MS: '1000',
  WHARF_WEBHOOK_POLL_MS: '50',
};
/** A long request time-out: a held request never times out during a test; the lease is 62 s of test clock. */
const SLOW = { ...ENV, WHARF_WEBHOOK_TIMEOUT_MS: '60000' };
const LEASE_MS = 60_000 + 2000;
const SECRET = 'It’s a Secret to Everybody';

const pool = new ReceiverPool();
after(async () => { await pool.stopAll(); });

const receiver = () => pool.start();
const b64 = (s: string) => Buffer.from(s).toString('base64');
const header = headerOf;
const afterOf = (r: Received) => (JSON.parse(r.body) as { after?: string }).after;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = new Promise<Answer>(() => undefined);

async function signatureOk(r: Received, secret: string): Promise<boolean> {
  const sig256 = header(r, 'x-hub-signature-256');
  const sig1 = header(r, 'x-hub-signature');
  if (!sig256 || !sig1) return false;
  return await verify(secret, r.body, sig256) && sig1 === `sha1=${createHmac('sha1', secret).update(r.body).digest('hex')}`;
}

interface Hooked {
  user: CreatedUser;
  repo: string;
  hookId: number;
}

async function hooked(t: TestServer, rx: Receiver, name: string, secret: string | null = SECRET): Promise<Hooked> {
  const user = await createUser(t);
  const kit = t.octokit(user.token);
  const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name, auto_init: true });
  const { data: hook } = await kit.rest.repos.createWebhook({
    owner: user.login, repo: repo.name, events: ['push'], config: { url: rx.url(), ...(secret ? { secret } : {}) },
  });
  return { user, repo: repo.name, hookId: hook.id };
}

async function pushFile(t: TestServer, h: Hooked, file: string): Promise<string> {
  const { data } = await t.octokit(h.user.token).rest.repos.createOrUpdateFileContents({
    owner: h.user.login, repo: h.repo, path: file, message: file, content: b64(file),
  });
  return data.commit.sha!;
}

async function deliveries(t: TestServer, h: Hooked) {
  return (await t.octokit(h.user.token).rest.repos.listWebhookDeliveries({ owner: h.user.login, repo: h.repo, hook_id: h.hookId })).data;
}

async function storedSecret(t: TestServer, hookId: number): Promise<string | null> {
  const row = await t.server.database.db.selectFrom('hooks').select('config_secret').where('id', '=', hookId).executeTakeFirstOrThrow();
  return row.config_secret;
}

async function removeData(t: TestServer): Promise<void> {
  fs.rmSync(t.dataDir, { recursive: true, force: true });
  const pgUrl = process.env.WHARF_TEST_DATABASE_URL;
  if (pgUrl && t.pgSchema && !process.env.WHARF_TEST_KEEP_SCHEMAS) await dropPgSchema(pgUrl, t.pgSchema);
}

/**
 * A hook whose creation ping the receiver holds, with `count` pushes queued behind it;
 * then the ping is answered, and the worker claims the pushes as one batch.
 */
async function queuedBehindPing(t: TestServer, rx: Receiver, name: string, count: number, later: (r: Received, index: number) => Answer | Promise<Answer>) {
  let answerPing!: () => void;
  const ping = new Promise<Answer>((resolve) => { answerPing = () => resolve({ status: 200, body: 'ok' }); });
  rx.respond = (r, index) => (index === 0 ? ping : later(r, index));
  const h = await hooked(t, rx, name);
  await rx.waitFor(1);
  const shas: string[] = [];
  for (let i = 0; i < count; i++) shas.push(await pushFile(t, h, `f${i}.txt`));
  await eventually(async () => ((await deliveries(t, h)).length === count + 1 ? true : undefined), 20_000, 'pushes queued');
  answerPing();
  return { h, shas };
}

describe('finding 10: webhook recovery after a crash', () => {
  test('a crashed process\'s claims are all due again after one lease, and go out in order before the hook\'s later events', async () => {
    const clock = new TestClock();
    const a = await startTestServer({ env: SLOW, clock });
    let b: TestServer | null = null;
    const rx = await receiver();
    try {
      // The first push (index 1) is held: process A dies with pushes 1–4 claimed.
      const { h, shas } = await queuedBehindPing(a, rx, 'crashy', 4, (_r, index) => (index === 1 ? never : { status: 200, body: 'ok' }));
      const [, held] = await rx.waitFor(2);
      assert.equal(afterOf(held!), shas[0]);
      await eventually(async () => ((await deliveries(a, h)).find((d) => d.event === 'ping')?.status === 'OK' ? true : undefined));
      // The crash: A's database goes away under it; B takes over the same data.
      await a.server.database.close();
      b = await startTestServer({ env: SLOW, clock, shareWith: a });
      shas.push(await pushFile(b, h, 'later.txt'));
      await eventually(async () => ((await deliveries(b!, h)).length === 6 ? true : undefined), 20_000, 'the later push queued');
      // While A's claims hold, nothing of the hook goes out: not even the later push.
      for (let i = 0; i < 6; i++) {
        b.server.webhooks.nudge();
        await sleep(60);
      }
      assert.equal(rx.received.length, 2, 'nothing sent while the dead process\'s claims hold');

      // One lease later, every claim is due again, whatever its place in A's batch.
      clock.advance(LEASE_MS);
      const resent = await eventually(async () => {
        b!.server.webhooks.nudge();
        return rx.received.length >= 7 ? rx.received.slice(2) : undefined;
      }, 10_000, 'the claims of the dead process sent again');
      assert.deepEqual(resent.map(afterOf), shas, 'in the order of the events: the interrupted one first, the later push last');
      assert.equal(header(resent[0]!, 'x-service-delivery'), header(held!, 'x-service-delivery'), 'the same delivery again');
      for (const r of resent) assert.ok(await signatureOk(r, SECRET));
      const ds = await eventually(async () => {
        const all = await deliveries(b!, h);
        return all.every((d) => d.status === 'OK') ? all : undefined;
      });
      assert.equal(ds.length, 6);
      await sleep(200);
      assert.equal(rx.received.length, 7, 'each sent once by B');
    } finally {
      // A's held request ends with the receiver; A, without its database, stops there.
      await rx.stop();
      await b?.close();
      await a.server.app.close();
      await a.server.webhooks.stop();
      await removeData(a);
    }
  });

  test('a live process keeps its claims while its batch outlasts the lease (renewed), so nothing is sent twice', async () => {
    const clock = new TestClock();
    const t = await startTestServer({ env: SLOW, clock });
    const rx = await receiver();
    try {
      // Each push takes 40 s of test clock (and a little real time, for the worker's
      // passes to look for expired claims in between): four of them outlast a 62 s lease.
      const { h, shas } = await queuedBehindPing(t, rx, 'slowpoke', 4, async () => {
        clock.advance(40_000);
        await sleep(150);
        return { status: 200, body: 'ok' };
      });
      const got = await rx.waitFor(5);
      await eventually(async () => ((await deliveries(t, h)).every((d) => d.status === 'OK') ? true : undefined));
      await sleep(300);
      assert.equal(rx.received.length, 5, 'no claim of the live batch was taken back and sent again');
      assert.deepEqual(got.slice(1).map(afterOf), shas);
    } finally {
      await t.close();
    }
  });
});

describe('finding 11: webhook secrets encrypted at rest', () => {
  test('the stored secret is sealed, never shown, and deliveries verify; a restart on the same data dir signs alike', async () => {
    const first = await startTestServer({ env: ENV });
    let second: TestServer | null = null;
    const rx = await receiver();
    try {
      const h = await hooked(first, rx, 'sealed');
      const [ping] = await rx.waitFor(1);
      assert.ok(await signatureOk(ping!, SECRET));
      const stored = (await storedSecret(first, h.hookId))!;
      assert.ok(isSealed(stored), stored);
      assert.ok(!stored.includes(SECRET) && !stored.includes(b64(SECRET)), 'no plaintext in the column');
      const { data: hook } = await first.octokit(h.user.token).rest.repos.getWebhook({ owner: h.user.login, repo: h.repo, hook_id: h.hookId });
      assert.equal(hook.config.secret, '********');
      assert.ok(!JSON.stringify(hook).includes(SECRET));
      // Random IV: the same secret seals differently each time.
      await first.octokit(h.user.token).rest.repos.updateWebhook({ owner: h.user.login, repo: h.repo, hook_id: h.hookId, config: { url: rx.url(), secret: SECRET } });
      assert.notEqual(await storedSecret(first, h.hookId), stored);

      const keyFile = path.join(first.dataDir, 'secret.key');
      assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600, 'the key file is readable by its owner only');
      await first.server.close();
      second = await startTestServer({ env: ENV, shareWith: first });
      const sha = await pushFile(second, h, 'after-restart.txt');
      const [push] = await rx.waitFor(1, (r) => afterOf(r) === sha);
      assert.ok(await signatureOk(push!, SECRET), 'signed with the same secret after the restart');
    } finally {
      await second?.close();
      await removeData(first);
    }
  });

  test('WHARF_SECRET_KEY: used instead of a key file; a restart with it signs alike; another key is refused at start', async () => {
    const key = randomBytes(32).toString('base64');
    const env = { ...ENV, WHARF_SECRET_KEY: key };
    const first = await startTestServer({ env });
    let second: TestServer | null = null;
    const rx = await receiver();
    try {
      assert.ok(!fs.existsSync(path.join(first.dataDir, 'secret.key')), 'no key file when the key is given');
      const h = await hooked(first, rx, 'keyed');
      await rx.waitFor(1);
      assert.ok(isSealed((await storedSecret(first, h.hookId))!));
      await first.server.close();

      // The same key as hex is the same key.
      second = await startTestServer({ env: { ...env, WHARF_SECRET_KEY: Buffer.from(key, 'base64').toString('hex') }, shareWith: first });
      const sha = await pushFile(second, h, 'keyed.txt');
      const [push] = await rx.waitFor(1, (r) => afterOf(r) === sha);
      assert.ok(await signatureOk(push!, SECRET));
      await second.close();
      second = null;

      await assert.rejects(startTestServer({ env: { ...env, WHARF_SECRET_KEY: randomBytes(32).toString('base64') }, shareWith: first }),
        (err: Error) => err instanceof SecretKeyError && /not the one that sealed/.test(err.message));
      // Without WHARF_SECRET_KEY, a new key file is not the key either.
      await assert.rejects(startTestServer({ env: ENV, shareWith: first }), SecretKeyError);
      await assert.rejects(startTestServer({ env: { ...env, WHARF_SECRET_KEY: 'c2hvcnQ=' }, shareWith: first }), /WHARF_SECRET_KEY must be 32 bytes/);
    } finally {
      await second?.close();
      await removeData(first);
    }
  });

  test('a secret stored in plaintext before sealing still signs, and is sealed at the next start', async () => {
    const first = await startTestServer({ env: ENV });
    let second: TestServer | null = null;
    const rx = await receiver();
    try {
      const h = await hooked(first, rx, 'legacy', 'old-secret');
      await rx.waitFor(1);
      await first.server.database.db.updateTable('hooks').set({ config_secret: 'old-secret' }).where('id', '=', h.hookId).execute();
      const sha = await pushFile(first, h, 'legacy.txt');
      const [push] = await rx.waitFor(1, (r) => afterOf(r) === sha);
      assert.ok(await signatureOk(push!, 'old-secret'), 'the plaintext row signs as before');
      await first.server.close();

      second = await startTestServer({ env: ENV, shareWith: first });
      const sealed = await eventually(async () => {
        const s = await storedSecret(second!, h.hookId);
        return s && isSealed(s) ? s : undefined;
      }, 10_000, 'the plaintext secret sealed');
      assert.ok(!sealed.includes('old-secret'));
      const sha2 = await pushFile(second, h, 'legacy2.txt');
      const [push2] = await rx.waitFor(1, (r) => afterOf(r) === sha2);
      assert.ok(await signatureOk(push2!, 'old-secret'));
    } finally {
      await second?.close();
      await removeData(first);
    }
  });

  test('a stored secret that does not open: the delivery fails and says why, nothing goes out unsigned', async () => {
    const t = await startTestServer({ env: ENV });
    const rx = await receiver();
    try {
      const h = await hooked(t, rx, 'unopenable');
      await rx.waitFor(1);
      // Sealed under another key (a database restored next to the wrong key file).
      const foreign = new SecretBox(randomBytes(32)).seal(SECRET, 'hooks.config_secret');
      await t.server.database.db.updateTable('hooks').set({ config_secret: foreign }).where('id', '=', h.hookId).execute();
      await t.octokit(h.user.token).rest.repos.pingWebhook({ owner: h.user.login, repo: h.repo, hook_id: h.hookId });
      const failed = await eventually(async () => {
        const ds = await deliveries(t, h);
        return ds.length === 2 && ds[0]!.status !== 'pending' ? ds[0]! : undefined;
      });
      assert.match(failed.status, /Secret cannot be decrypted/);
      await sleep(200);
      assert.equal(rx.received.length, 1, 'nothing sent without its signature');
    } finally {
      await t.close();
    }
  });

  test('the secret box: AES-256-GCM with a random IV, bound to its purpose, refusing another key or an altered value', () => {
    const key = randomBytes(32);
    const box = new SecretBox(key);
    const a = box.seal('s3cret', 'hooks.config_secret');
    const b = box.seal('s3cret', 'hooks.config_secret');
    assert.notEqual(a, b);
    assert.ok(a.startsWith('enc:v1:'));
    assert.equal(box.open(a, 'hooks.config_secret'), 's3cret');
    assert.throws(() => box.open(a, 'apps.private_key'), SecretKeyError);
    assert.throws(() => new SecretBox(randomBytes(32)).open(a, 'hooks.config_secret'), SecretKeyError);
    const raw = Buffer.from(a.slice('enc:v1:'.length), 'base64');
    raw[raw.length - 1]! ^= 1;
    assert.throws(() => box.open(`enc:v1:${raw.toString('base64')}`, 'hooks.config_secret'), SecretKeyError);
    assert.deepEqual(parseSecretKey(key.toString('hex'), 'k'), key);
    assert.deepEqual(parseSecretKey(key.toString('base64url'), 'k'), key);
    assert.throws(() => parseSecretKey('not a key', 'k'), SecretKeyError);
    assert.throws(() => parseSecretKey(randomBytes(16).toString('base64'), 'k'), SecretKeyError);
    assert.ok(box.matches(box.keyCheck()));
    assert.ok(!new SecretBox(randomBytes(32)).matches(box.keyCheck()));
  });
});
