// The GraphQL explorer in a real browser: headless Chromium (Debian's `chromium`,
// which .ci/run installs) driven by playwright-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';

const CHROMIUM = '/usr/bin/chromium';
const missing = !fs.existsSync(CHROMIUM);
if (missing) console.log(`# skipping the explorer test: ${CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it)`);

/** The text of GraphiQL's response pane once it holds `expected`. */
async function responseText(page: Page, expected: string): Promise<string> {
  await page.waitForFunction((text) => {
    const el = document.querySelector('.graphiql-response .CodeMirror') as (Element & { CodeMirror?: { getValue(): string } }) | null;
    return el?.CodeMirror?.getValue().includes(text) ?? false;
  }, expected, { timeout: 30_000 });
  return page.evaluate(() => {
    const el = document.querySelector('.graphiql-response .CodeMirror') as Element & { CodeMirror: { getValue(): string } };
    return el.CodeMirror.getValue();
  });
}

/** Replaces the query editor's text, as typing it would. */
async function setQuery(page: Page, query: string): Promise<void> {
  await page.evaluate((q) => {
    const el = document.querySelector('.graphiql-query-editor .CodeMirror') as Element & { CodeMirror: { setValue(v: string): void } };
    el.CodeMirror.setValue(q);
  }, query);
}

describe('GraphQL explorer', { skip: missing ? 'chromium is not installed' : false }, () => {
  let t: TestServer;
  let alice: CreatedUser;
  let browser: Browser;
  /** One browser profile for the whole suite: the page keeps the token in it. */
  let context: BrowserContext;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'harbour', auto_init: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    context = await browser.newContext();
  });
  after(async () => {
    await browser?.close();
    await t.close();
  });

  test('the page and its bundle come from Wharf itself, with no other origin contacted', async () => {
    const res = await t.request('/graphql/explorer');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const html = await res.text();
    assert.match(html, /src="\/graphql\/explorer\/app\.js"/);
    assert.doesNotMatch(html, /https?:\/\//, 'no absolute URL to fetch from');
    const js = await t.request('/graphql/explorer/app.js');
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    const css = await t.request('/graphql/explorer/app.css');
    assert.equal(css.status, 200);
    assert.match(await css.text(), /graphiql/);
  });

  test('enter a token and a query, run it, see the result; the docs come from introspection', async () => {
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith(t.baseUrl)) foreign.push(r.url()); });
    await page.goto(`${t.baseUrl}/graphql/explorer`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror');

    await page.fill('#wharf-token-input', alice.token);
    await page.click('#wharf-token-apply');
    await page.waitForSelector('text=token set');

    await setQuery(page, '{ viewer { login repositories(first: 5) { nodes { name } } } }');
    await page.click('.graphiql-execute-button');
    const text = await responseText(page, alice.login);
    const result = JSON.parse(text) as { data: { viewer: { login: string; repositories: { nodes: { name: string }[] } } } };
    assert.equal(result.data.viewer.login, alice.login);
    assert.deepEqual(result.data.viewer.repositories.nodes, [{ name: 'harbour' }]);

    // The documentation explorer lists the roots the schema's introspection gave it.
    await page.click('[aria-label="Show Documentation Explorer"]');
    await page.waitForSelector('.graphiql-doc-explorer');
    await page.click('.graphiql-doc-explorer >> text=Query');
    await page.waitForSelector('.graphiql-doc-explorer >> text=repositoryOwner');

    // A mutation runs too.
    await setQuery(page, 'mutation { createRepository(input: {name: "from-explorer", visibility: PRIVATE, clientMutationId: "x"}) { clientMutationId repository { nameWithOwner isPrivate } } }');
    await page.click('.graphiql-execute-button');
    const created = JSON.parse(await responseText(page, 'from-explorer')) as { data: { createRepository: { clientMutationId: string; repository: { nameWithOwner: string; isPrivate: boolean } } } };
    assert.deepEqual(created.data.createRepository, { clientMutationId: 'x', repository: { nameWithOwner: `${alice.login}/from-explorer`, isPrivate: true } });
    const { data: repo } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'from-explorer' });
    assert.equal(repo.private, true);

    assert.deepEqual(foreign, []);
    await page.close();
  });

  test('the named operations of one editor run as separate calls', async () => {
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url() === `${t.baseUrl}/graphql` && r.method() === 'POST') {
        const body = JSON.parse(r.postData() ?? '{}') as { operationName?: string };
        if (body.operationName !== 'IntrospectionQuery') calls.push(body.operationName ?? '(none)');
      }
    });
    await page.goto(`${t.baseUrl}/graphql/explorer`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror');
    // The token given before is remembered by the page.
    await page.waitForSelector('text=token set');
    await setQuery(page, 'query Me { viewer { login } }\nquery Harbour { repository(owner: "' + alice.login + '", name: "harbour") { name } }');
    await page.click('[aria-label="Run all named operations, each as its own call"]');
    const text = await responseText(page, '"Harbour"');
    const result = JSON.parse(text) as Record<string, { data: unknown }>;
    assert.deepEqual(result.Me!.data, { viewer: { login: alice.login } });
    assert.deepEqual(result.Harbour!.data, { repository: { name: 'harbour' } });
    assert.deepEqual(calls, ['Me', 'Harbour']);
    await page.close();
  });
});
