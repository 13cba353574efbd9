import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { GITIGNORE_TEMPLATES } from '../src/modules/templates/gitignore/index.ts';
import { detectLicense, gitignoreTemplate, licenseBody } from '../src/modules/templates/templates.service.ts';
import { licenseSimple } from '../src/modules/templates/templates.views.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const require = createRequire(import.meta.url);
const spdxText = (id: string): string => (require(`spdx-license-list/licenses/${id}.json`) as { licenseText: string }).licenseText;

const TEXT = 'text/plain; charset=utf-8';
const COMMON = [
  'agpl-3.0', 'apache-2.0', 'bsd-2-clause', 'bsd-3-clause', 'bsl-1.0', 'cc0-1.0', 'epl-2.0',
  'gpl-2.0', 'gpl-3.0', 'lgpl-2.1', 'mit', 'mpl-2.0', 'unlicense',
];
const FEATURED = ['apache-2.0', 'gpl-3.0', 'mit'];

let t: TestServer;

before(async () => {
  // Every call here is anonymous, from one address: keep them clear of the limit.
  t = await startTestServer({ env: { WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000' } });
});

after(async () => {
  await t?.close();
});

async function assertStatus(promise: Promise<unknown>, status: number): Promise<void> {
  await assert.rejects(promise, (err: { status?: number }) => {
    assert.equal(err.status, status);
    return true;
  });
}

describe('GET /gitignore/templates', () => {
  test('lists at least 24 templates, upstream\'s names, in code-unit order', async () => {
    const { data, status } = await t.octokit().rest.gitignore.getAllTemplates();
    assert.equal(status, 200);
    assertMatchesOpenApi('GET', '/gitignore/templates', 200, data);
    assert.ok(data.length >= 24, `${data.length} templates`);
    assert.deepEqual(data, [...data].sort());
    assert.deepEqual(data, Object.keys(GITIGNORE_TEMPLATES).sort());
    for (const name of ['Node', 'Python', 'Go', 'Rust', 'Java', 'Kotlin', 'C', 'C++', 'Ruby', 'Swift', 'Objective-C', 'Scala',
      'Haskell', 'Elixir', 'Erlang', 'Dart', 'Unity', 'Android', 'Gradle', 'Maven', 'Terraform', 'Laravel', 'Rails',
      'Symfony', 'VisualStudio', 'Jekyll', 'Julia', 'R', 'Zig', 'Lua']) {
      assert.ok(data.includes(name), name);
    }
    // "C" < "C++" < "CMake": upstream sorts by code unit, not alphabetically ignoring case.
    assert.ok(data.indexOf('C') < data.indexOf('C++') && data.indexOf('C++') < data.indexOf('CMake'));
  });

  test('names stay distinct ignoring case, and every source is a non-empty file ending in a newline', () => {
    const names = Object.keys(GITIGNORE_TEMPLATES);
    assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length);
    for (const [name, source] of Object.entries(GITIGNORE_TEMPLATES)) {
      assert.ok(source.trim().length > 0, name);
      assert.ok(source.endsWith('\n') && !source.endsWith('\n\n'), name);
      assert.ok(!source.startsWith('\n'), name);
      const patterns = source.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
      assert.ok(patterns.length >= 3, `${name} ignores something`);
    }
  });
});

describe('GET /gitignore/templates/{name}', () => {
  test('answers name and source for every listed template', async () => {
    const octokit = t.octokit();
    for (const name of Object.keys(GITIGNORE_TEMPLATES)) {
      const { data, status } = await octokit.rest.gitignore.getTemplate({ name });
      assert.equal(status, 200);
      assertMatchesOpenApi('GET', '/gitignore/templates/{name}', 200, data);
      assert.deepEqual(data, { name, source: GITIGNORE_TEMPLATES[name] });
    }
  });

  test('the sources ignore what their toolchains produce', async () => {
    const octokit = t.octokit();
    const expectations: Record<string, string[]> = {
      Node: ['node_modules/'], Python: ['__pycache__/'], Rust: ['/target/'], Java: ['*.class'], 'C++': ['*.o'],
      Terraform: ['.terraform/', '*.tfstate'], Unity: ['/[Ll]ibrary/'], VisualStudio: ['.vs/'],
    };
    for (const [name, patterns] of Object.entries(expectations)) {
      const { data } = await octokit.rest.gitignore.getTemplate({ name });
      const lines = data.source.split('\n');
      for (const p of patterns) assert.ok(lines.includes(p), `${name} ignores ${p}`);
    }
  });

  test('an exact name is preferred, any other casing finds the template under its own name', async () => {
    const octokit = t.octokit();
    for (const [asked, name] of [['python', 'Python'], ['VISUALSTUDIO', 'VisualStudio'], ['objective-c', 'Objective-C'], ['c++', 'C++']]) {
      const { data } = await octokit.rest.gitignore.getTemplate({ name: asked! });
      assert.equal(data.name, name);
      assert.equal(data.source, GITIGNORE_TEMPLATES[name!]);
    }
  });

  test('an unknown name is 404', async () => {
    await assertStatus(t.octokit().rest.gitignore.getTemplate({ name: 'NoSuchLanguage' }), 404);
    await assertStatus(t.octokit().rest.gitignore.getTemplate({ name: 'toString' }), 404);
    const res = await t.request('/gitignore/templates/Nope', { headers: { accept: 'application/vnd.service.raw' } });
    assert.equal(res.status, 404);
    assert.equal((await res.json() as { message: string }).message, 'Not Found');
  });

  test('the raw media type answers the source as plain text, under either vendor name', async () => {
    const source = GITIGNORE_TEMPLATES.Go!;
    for (const accept of ['application/vnd.service.raw', 'application/vnd.service.v3.raw', 'application/vnd.github.raw',
      'application/vnd.github.v3.raw', 'application/vnd.github.raw+json']) {
      const res = await t.request('/gitignore/templates/Go', { headers: { accept } });
      assert.equal(res.status, 200, accept);
      assert.equal(res.headers.get('content-type'), TEXT, accept);
      assert.equal(await res.text(), source, accept);
    }
    const json = await t.request('/gitignore/templates/Go', { headers: { accept: 'application/vnd.github+json' } });
    assert.deepEqual(await json.json(), { name: 'Go', source });
  });

  test('Octokit\'s raw format gets the file text', async () => {
    const res = await t.octokit().rest.gitignore.getTemplate({ name: 'C++', mediaType: { format: 'raw' } });
    assert.equal(res.headers['content-type'], TEXT);
    assert.equal(res.data as unknown as string, GITIGNORE_TEMPLATES['C++']);
  });
});

describe('gitignoreTemplate()', () => {
  test('gives the source by name, any casing, or null', () => {
    assert.equal(gitignoreTemplate('Node'), GITIGNORE_TEMPLATES.Node);
    assert.equal(gitignoreTemplate('node'), GITIGNORE_TEMPLATES.Node);
    assert.equal(gitignoreTemplate('Nope'), null);
    assert.equal(gitignoreTemplate('constructor'), null);
  });
});

describe('GET /licenses', () => {
  test('lists upstream\'s commonly used licenses in key order, as license-simple', async () => {
    const { data, status } = await t.octokit().rest.licenses.getAllCommonlyUsed();
    assert.equal(status, 200);
    assertMatchesOpenApi('GET', '/licenses', 200, data);
    assert.deepEqual(data.map((l) => l.key), COMMON);
    for (const l of data) {
      assert.deepEqual(Object.keys(l), ['key', 'name', 'spdx_id', 'url', 'node_id']);
      assert.equal(l.url, `${t.baseUrl}/licenses/${l.key}`);
    }
    assert.equal(new Set(data.map((l) => l.node_id)).size, data.length);
    assert.deepEqual(data.find((l) => l.key === 'mit'), {
      key: 'mit', name: 'MIT License', spdx_id: 'MIT', url: `${t.baseUrl}/licenses/mit`, node_id: 'MDc6TGljZW5zZTEz',
    });
    // Upstream keeps the short GNU identifiers.
    assert.equal(data.find((l) => l.key === 'gpl-3.0')!.spdx_id, 'GPL-3.0');
    assert.equal(data.find((l) => l.key === 'gpl-3.0')!.name, 'GNU General Public License v3.0');
  });

  test('featured=true keeps the featured ones, featured=false the others', async () => {
    const octokit = t.octokit();
    const featured = await octokit.rest.licenses.getAllCommonlyUsed({ featured: true });
    assert.deepEqual(featured.data.map((l) => l.key), FEATURED);
    const others = await octokit.rest.licenses.getAllCommonlyUsed({ featured: false });
    assert.deepEqual(others.data.map((l) => l.key), COMMON.filter((k) => !FEATURED.includes(k)));
  });

  test('pages with per_page and page, and says so in Link', async () => {
    const res = await t.request('/licenses?per_page=5&page=2');
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json() as { key: string }[]).map((l) => l.key), COMMON.slice(5, 10));
    const link = res.headers.get('link') ?? '';
    for (const [rel, page] of [['prev', 1], ['next', 3], ['last', 3], ['first', 1]] as const) {
      assert.ok(link.includes(`<${t.baseUrl}/licenses?per_page=5&page=${page}>; rel="${rel}"`), `${rel} in ${link}`);
    }
    const last = await t.request('/licenses?per_page=5&page=3');
    assert.deepEqual((await last.json() as { key: string }[]).map((l) => l.key), COMMON.slice(10));
    const all = await t.request('/licenses');
    assert.equal(all.headers.get('link'), null);
  });
});

describe('GET /licenses/{license}', () => {
  test('answers the full license record for each commonly used key', async () => {
    const octokit = t.octokit();
    for (const key of COMMON) {
      const { data, status } = await octokit.rest.licenses.get({ license: key });
      assert.equal(status, 200);
      assertMatchesOpenApi('GET', '/licenses/{license}', 200, data);
      assert.equal(data.key, key);
      assert.equal(data.url, `${t.baseUrl}/licenses/${key}`);
      assert.equal(data.featured, FEATURED.includes(key));
      assert.ok(data.description.length > 20 && data.implementation.length > 20, key);
      assert.ok(data.permissions.includes('commercial-use') && data.permissions.includes('distribution'), key);
      assert.ok(data.limitations.includes('liability'), key);
      assert.match(data.html_url, /^https:\/\//);
      const { data: list } = await octokit.rest.licenses.getAllCommonlyUsed();
      const simple = list.find((l) => l.key === key)!;
      assert.deepEqual({ key: data.key, name: data.name, spdx_id: data.spdx_id, url: data.url, node_id: data.node_id }, simple);
    }
  });

  test('mit: its rules, and the SPDX text with placeholders as the body', async () => {
    const { data } = await t.octokit().rest.licenses.get({ license: 'mit' });
    assert.deepEqual(data.permissions, ['commercial-use', 'modifications', 'distribution', 'private-use']);
    assert.deepEqual(data.conditions, ['include-copyright']);
    assert.deepEqual(data.limitations, ['liability', 'warranty']);
    assert.equal(data.body, spdxText('MIT'));
    assert.ok(data.body.includes('<year> <copyright holders>'));
    assert.equal(data.node_id, 'MDc6TGljZW5zZTEz');
    assert.equal(data.spdx_id, 'MIT');
  });

  test('the rules tell the licenses apart', async () => {
    const octokit = t.octokit();
    const get = async (license: string) => (await octokit.rest.licenses.get({ license })).data;
    const [apache, agpl, gpl2, lgpl, mpl, cc0, unlicense, bsl] = await Promise.all(
      ['apache-2.0', 'agpl-3.0', 'gpl-2.0', 'lgpl-2.1', 'mpl-2.0', 'cc0-1.0', 'unlicense', 'bsl-1.0'].map(get),
    );
    assert.ok(apache!.permissions.includes('patent-use'));
    assert.ok(apache!.limitations.includes('trademark-use'));
    assert.ok(agpl!.conditions.includes('network-use-disclose'));
    assert.ok(!gpl2!.permissions.includes('patent-use'));
    assert.ok(gpl2!.conditions.includes('same-license'));
    assert.ok(lgpl!.conditions.includes('same-license--library'));
    assert.ok(mpl!.conditions.includes('same-license--file'));
    assert.deepEqual(cc0!.conditions, []);
    assert.ok(cc0!.limitations.includes('patent-use'));
    assert.deepEqual(unlicense!.conditions, []);
    assert.deepEqual(bsl!.conditions, ['include-copyright--source']);
    assert.equal(gpl2!.body, spdxText('GPL-2.0-only'));
  });

  test('finds a license by its SPDX id in any casing', async () => {
    const octokit = t.octokit();
    assert.equal((await octokit.rest.licenses.get({ license: 'MIT' })).data.key, 'mit');
    assert.equal((await octokit.rest.licenses.get({ license: 'Apache-2.0' })).data.key, 'apache-2.0');
  });

  test('an unknown license is 404', async () => {
    await assertStatus(t.octokit().rest.licenses.get({ license: 'wtfpl' }), 404);
    await assertStatus(t.octokit().rest.licenses.get({ license: 'constructor' }), 404);
  });
});

describe('licenseBody()', () => {
  const who = { year: 2026, fullname: 'Jane Doe' };

  test('fills the year and the holder of the copyright line', () => {
    const mit = licenseBody('mit', who)!;
    assert.ok(mit.includes('Copyright (c) 2026 Jane Doe\n'), mit.slice(0, 80));
    assert.equal(mit, spdxText('MIT').replace('<year> <copyright holders>', '2026 Jane Doe'));
    assert.ok(licenseBody('bsd-2-clause', who)!.startsWith('Copyright (c) 2026 Jane Doe'));
    assert.ok(licenseBody('bsd-3-clause', { year: '2020-2026', fullname: 'Acme Ltd' })!.startsWith('Copyright (c) 2020-2026 Acme Ltd.'));
    const apache = licenseBody('apache-2.0', who)!;
    assert.ok(apache.includes('\nCopyright 2026 Jane Doe\n'));
    assert.ok(!apache.includes('[yyyy]') && !apache.includes('[name of copyright owner]'));
    assert.equal(licenseBody('MIT', who), mit);
  });

  test('leaves texts without a holder placeholder as they are, the GNU appendix samples included', () => {
    for (const [key, id] of [['gpl-3.0', 'GPL-3.0-only'], ['agpl-3.0', 'AGPL-3.0-only'], ['bsl-1.0', 'BSL-1.0'], ['unlicense', 'Unlicense']]) {
      assert.equal(licenseBody(key!, who), spdxText(id!), key);
    }
    assert.ok(licenseBody('gpl-3.0', who)!.includes('Copyright (C) <year>  <name of author>'));
  });

  test('fills every placeholder it knows in every license, and is null for an unknown key', () => {
    for (const key of COMMON) {
      const body = licenseBody(key, who)!;
      for (const p of ['<copyright holders>', '<owner>', '[name of copyright owner]', '[yyyy]', '[fullname]', '[year]']) {
        assert.ok(!body.includes(p), `${key} still has ${p}`);
      }
    }
    assert.equal(licenseBody('wtfpl', who), null);
  });
});

describe('detectLicense()', () => {
  test('recognises the text licenseBody produces, and the bare template, for every key', () => {
    for (const key of COMMON) {
      assert.equal(detectLicense(licenseBody(key, { year: 2026, fullname: 'Jane Doe' })!), key, key);
      assert.equal(detectLicense(licenseBody(key, { year: '2011-2026', fullname: 'The Long-Named Example Foundation and its contributors' })!), key, key);
    }
    assert.equal(detectLicense(spdxText('MIT')), 'mit');
    assert.equal(detectLicense(spdxText('GPL-3.0-only')), 'gpl-3.0');
    assert.equal(detectLicense(spdxText('AGPL-3.0-only')), 'agpl-3.0');
  });

  test('ignores case, punctuation, line wrapping, line endings and extra copyright lines', () => {
    const mit = licenseBody('mit', { year: 2026, fullname: 'Jane Doe' })!;
    assert.equal(detectLicense(mit.toUpperCase()), 'mit');
    assert.equal(detectLicense(mit.replace(/\s+/g, ' ')), 'mit');
    assert.equal(detectLicense(mit.replace(/\n/g, '\r\n')), 'mit');
    assert.equal(detectLicense(mit.replace(/[.,"()]/g, '')), 'mit');
    const rewrapped = mit.replace(/\s+/g, ' ').replace(/(.{60}\S*) /g, '$1\n');
    assert.equal(detectLicense(rewrapped), 'mit');
    const manyHolders = mit.replace('Copyright (c) 2026 Jane Doe',
      'Copyright (c) 2019 Original Author Incorporated, All Rights Reserved\nCopyright (c) 2021-2026 Jane Doe and the many contributors listed in AUTHORS\n© 2026 Someone Else Entirely');
    assert.equal(detectLicense(manyHolders), 'mit');
    assert.equal(detectLicense(`The ${mit.replace('MIT License', 'MIT License (MIT)')}`), 'mit');
  });

  test('rejects unrelated text and licenses it does not know', () => {
    assert.equal(detectLicense(''), null);
    assert.equal(detectLicense('Copyright (c) 2026 Jane Doe'), null);
    assert.equal(detectLicense('# My project\n\nA small tool that does one thing well. Install it with npm.\n'), null);
    assert.equal(detectLicense(GITIGNORE_TEMPLATES.Node!), null);
    // Close relatives of known licenses are not them.
    for (const id of ['MIT-0', 'ISC', 'BSD-4-Clause', 'BSD-1-Clause', 'LGPL-3.0-only', 'GPL-1.0-only', 'Apache-1.1', 'EPL-1.0', 'MPL-1.1', 'CC-BY-4.0', '0BSD']) {
      assert.equal(detectLicense(spdxText(id)), null, id);
    }
    // A known license with a paragraph missing is not that license.
    const mit = licenseBody('mit', { year: 2026, fullname: 'Jane Doe' })!;
    assert.equal(detectLicense(mit.replace(/The above copyright notice[^\n]*\n[^\n]*\n/, '')), null);
  });

  test('a text within reach of two licenses goes to the closer one', () => {
    // GPL-3.0 and AGPL-3.0 differ most in their preambles: swapping only the preamble
    // leaves a text at 95% or more of both, closer to the license the preamble came from.
    const gpl = spdxText('GPL-3.0-only');
    const agpl = spdxText('AGPL-3.0-only');
    const preamble = (text: string) => text.slice(text.indexOf('Preamble'), text.indexOf('TERMS AND CONDITIONS'));
    assert.equal(detectLicense(gpl.replace(preamble(gpl), preamble(agpl))), 'agpl-3.0');
    assert.equal(detectLicense(agpl.replace(preamble(agpl), preamble(gpl))), 'gpl-3.0');
  });

  test('a long unrelated file is rejected quickly', () => {
    const text = Array.from({ length: 4000 }, (_, i) => `line ${i} of some source file with words ${i % 97}`).join('\n');
    const started = Date.now();
    assert.equal(detectLicense(text), null);
    assert.equal(detectLicense(spdxText('GPL-3.0-only').split('\n').reverse().join('\n')), null);
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });
});

describe('licenseSimple()', () => {
  test('is the repository license field: key, name, spdx_id, url, node_id; null for an unknown key', () => {
    const urls = t.server.ctx.urls;
    const mit = licenseSimple('mit', urls);
    assert.deepEqual(mit, { key: 'mit', name: 'MIT License', spdx_id: 'MIT', url: `${t.baseUrl}/licenses/mit`, node_id: 'MDc6TGljZW5zZTEz' });
    assertMatchesOpenApi('GET', '/licenses', 200, [mit]);
    assert.deepEqual(licenseSimple('Apache-2.0', urls)?.key, 'apache-2.0');
    assert.equal(licenseSimple('wtfpl', urls), null);
    for (const key of COMMON) assert.equal(licenseSimple(detectLicense(licenseBody(key, { year: 2026, fullname: 'J' })!)!, urls)!.key, key);
  });
});
