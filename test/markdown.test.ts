import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderText } from '../src/modules/markdown/markdown.service.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

let t: TestServer;
let alice: CreatedUser;

before(async () => {
  // Anonymous calls in this file share one address; keep them clear of the limit.
  t = await startTestServer({ env: { WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000' } });
  alice = await createUser(t);
});

after(async () => {
  await t?.close();
});

async function render(text: string, mode?: 'markdown' | 'gfm', context?: string): Promise<string> {
  const { data, status } = await t.octokit().rest.markdown.render({ text, ...(mode ? { mode } : {}), ...(context ? { context } : {}) });
  assert.equal(status, 200);
  return data as unknown as string;
}

function postJson(body: unknown): Promise<Response> {
  return t.request('/markdown', { method: 'POST', json: body });
}

describe('POST /markdown', () => {
  test('answers the HTML itself, publicly, counted against the core budget', async () => {
    const res = await postJson({ text: 'Hello **world**' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('x-ratelimit-resource'), 'core');
    const before = Number(res.headers.get('x-ratelimit-used'));
    assert.equal(await res.text(), '<p>Hello <strong>world</strong></p>\n');
    const again = await postJson({ text: 'x' });
    assert.equal(Number(again.headers.get('x-ratelimit-used')), before + 1);
  });

  test('renders tables, with upstream\'s align attribute', async () => {
    const html = await render('| a | b |\n|---|--:|\n| 1 | 2 |\n');
    assert.match(html, /<table>/);
    assert.match(html, /<th>a<\/th>/);
    assert.match(html, /<th align="right">b<\/th>/);
    assert.match(html, /<td>1<\/td>/);
    assert.match(html, /<td align="right">2<\/td>/);
  });

  test('renders task lists as disabled checkboxes', async () => {
    const html = await render('- [ ] todo\n- [x] done\n');
    assert.match(html, /<ul class="contains-task-list">/);
    const inputs = html.match(/<input[^>]*>/g) ?? [];
    assert.equal(inputs.length, 2);
    for (const input of inputs) {
      assert.match(input, /type="checkbox"/);
      assert.match(input, /class="task-list-item-checkbox"/);
      assert.match(input, /\bdisabled\b/);
      assert.doesNotMatch(input, /\bid=/);
    }
    assert.doesNotMatch(inputs[0]!, /checked/);
    assert.match(inputs[1]!, /\bchecked\b/);
    assert.match(html, /<li class="task-list-item"><input[^>]*> todo<\/li>/);
  });

  test('renders strikethrough as <del>', async () => {
    assert.equal(await render('~~gone~~'), '<p><del>gone</del></p>\n');
  });

  test('links bare URLs', async () => {
    const html = await render('see https://example.com/x?y=1 and www.example.org');
    assert.match(html, /<a href="https:\/\/example\.com\/x\?y=1">https:\/\/example\.com\/x\?y=1<\/a>/);
    assert.match(html, /<a href="http:\/\/www\.example\.org">www\.example\.org<\/a>/);
  });

  test('keeps the language of fenced code as a class', async () => {
    const html = await render('```ts\nconst a = 1 < 2;\n```\n');
    assert.equal(html, '<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>\n');
  });

  test('removes scripts, styles, frames, event handlers and javascript: links', async () => {
    const html = await render([
      '<script>alert("s")</script>',
      '',
      '<style>body{display:none}</style><iframe src="https://evil.example"></iframe>',
      '',
      '<img src="https://example.com/a.png" onerror="alert(1)">',
      '',
      '<a href="javascript:alert(2)" onclick="alert(3)">click</a> [also](javascript:alert(4))',
      '',
      '<p class="fake" style="color:red">styled</p>',
    ].join('\n'));
    assert.doesNotMatch(html, /<script|alert\("s"\)/);
    assert.doesNotMatch(html, /<style|display:none|<iframe/);
    assert.doesNotMatch(html, /onerror|onclick/);
    assert.doesNotMatch(html, /href="javascript:/i);
    assert.doesNotMatch(html, /class="fake"|style=/);
    assert.match(html, /<img src="https:\/\/example\.com\/a\.png" \/?>/);
    assert.match(html, /<a>click<\/a>/);
  });

  test('an <input> of any kind becomes a disabled checkbox', async () => {
    const html = await render('<input type="text" value="x" name="y">');
    assert.match(html, /<input type="checkbox" disabled(="")? \/?>/);
  });

  test('answers 200 with nothing for an empty text, as upstream', async () => {
    const res = await postJson({ text: '' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });

  describe('gfm mode', () => {
    test('links @mentions of existing accounts only', async () => {
      const html = await render(`hi @${alice.login} and @nobody-${process.pid}-x, mail a@${alice.login}.example`, 'gfm');
      assert.match(html, new RegExp(`<a class="user-mention" href="${t.baseUrl}/${alice.login}">@${alice.login}</a>`));
      assert.match(html, new RegExp(`@nobody-${process.pid}-x,`));
      assert.equal(html.match(/user-mention/g)?.length, 1);
    });

    test('a mention in another case links to the registered login', async () => {
      const html = await render(`@${alice.login.toUpperCase()}`, 'gfm');
      assert.match(html, new RegExp(`<a class="user-mention" href="${t.baseUrl}/${alice.login}">@${alice.login.toUpperCase()}</a>`));
    });

    test('links #N to the context repository, and not without one', async () => {
      const withContext = await render('see #123.', 'gfm', 'octo/widgets');
      assert.equal(withContext, `<p>see <a class="issue-link" href="${t.baseUrl}/octo/widgets/issues/123">#123</a>.</p>\n`);
      const without = await render('see #123.', 'gfm');
      assert.equal(without, '<p>see #123.</p>\n');
      assert.equal(await render('see #123.', 'gfm', 'not a repository'), '<p>see #123.</p>\n');
    });

    test('links owner/repo#N to that repository', async () => {
      const html = await render('fixed by other/thing#5', 'gfm', 'octo/widgets');
      assert.equal(html, `<p>fixed by <a class="issue-link" href="${t.baseUrl}/other/thing/issues/5">other/thing#5</a></p>\n`);
      assert.match(await render('other/thing#5', 'gfm'), /<a class="issue-link" href="[^"]+\/other\/thing\/issues\/5">/);
    });

    test('does not link inside code or existing links, nor foo#1', async () => {
      const html = await render([
        `\`@${alice.login} #1\``,
        '',
        '```',
        `@${alice.login} #2`,
        '```',
        '',
        `    @${alice.login} #3`,
        '',
        `[@${alice.login} #4](https://example.com) <a href="https://example.com">@${alice.login} #5</a> <code>#6</code> foo#7`,
      ].join('\n'), 'gfm', 'octo/widgets');
      assert.doesNotMatch(html, /user-mention|issue-link/);
    });

    test('turns newlines into line breaks', async () => {
      assert.equal(await render('a\nb', 'gfm'), '<p>a<br />\nb</p>\n');
    });
  });

  describe('markdown mode', () => {
    test('links no mentions or references, and keeps soft line breaks', async () => {
      const html = await render(`@${alice.login} #1 a/b#2\nnext`, 'markdown', 'octo/widgets');
      assert.equal(html, `<p>@${alice.login} #1 a/b#2\nnext</p>\n`);
    });
  });

  describe('validation', () => {
    for (const [name, body, field, code] of [
      ['missing text', {}, 'text', 'missing_field'],
      ['text of the wrong type', { text: 42 }, 'text', 'invalid'],
      ['an unknown mode', { text: 'x', mode: 'html' }, 'mode', 'invalid'],
      ['context of the wrong type', { text: 'x', context: ['a/b'] }, 'context', 'invalid'],
    ] as const) {
      test(`${name} is 422`, async () => {
        const res = await postJson(body);
        assert.equal(res.status, 422);
        const err = await res.json() as { message: string; errors: { resource: string; field: string; code: string }[] };
        assert.equal(err.message, 'Validation Failed');
        assert.deepEqual(err.errors.map((e) => [e.resource, e.field, e.code]), [['Markdown', field, code]]);
      });
    }

    test('a body that is not JSON is 400', async () => {
      const res = await t.request('/markdown', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{text' });
      assert.equal(res.status, 400);
    });
  });
});

describe('POST /markdown/raw', () => {
  test('renders a text/plain body in markdown mode', async () => {
    const { data, status, headers } = await t.octokit().rest.markdown.renderRaw({
      data: `# Hi\n\n@${alice.login} #1 ~~x~~`,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
    assert.equal(status, 200);
    assert.equal(headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(data as unknown as string, `<h1>Hi</h1>\n<p>@${alice.login} #1 <del>x</del></p>\n`);
  });

  test('accepts text/x-markdown, and sanitizes', async () => {
    const res = await t.request('/markdown/raw', {
      method: 'POST',
      headers: { 'content-type': 'text/x-markdown' },
      body: '**é** <script>alert(1)</script>',
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-resource'), 'core');
    assert.equal(await res.text(), '<p><strong>é</strong> </p>\n');
  });

  test('an empty body renders as nothing', async () => {
    const res = await t.request('/markdown/raw', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });

  test('a JSON body is refused: raw mode takes the Markdown itself', async () => {
    const res = await t.request('/markdown/raw', { method: 'POST', json: { text: 'x' } });
    assert.equal(res.status, 415);
  });

  test('more than 400 KB is refused', async () => {
    const res = await t.request('/markdown/raw', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a'.repeat(400 * 1024 + 1) });
    assert.equal(res.status, 413);
  });
});

describe('renderText', () => {
  test('is the rendered text without tags, one line per block', () => {
    const text = renderText('# Title\n\nSome **bold**   & <em>raw</em> `a<b`\n\n- one\n- [x] two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>gone()</script>\n\n```\nx  = 1\n```\n');
    assert.equal(text, 'Title\nSome bold & raw a<b\none\ntwo\na b\n1 2\nx = 1');
  });

  test('keeps a line break as a new line', () => {
    assert.equal(renderText('first\r\nsecond\r\n\r\n\r\nthird'), 'first\nsecond\nthird');
  });
});
