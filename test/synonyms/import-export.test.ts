import t from 'tap';
import { setup } from '../helpers/harness.js';

const h = await setup();
t.teardown(() => h.close());

type Key = { key: string };
const importFile = (tenant: Key, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.api.call('POST', '/v1/synonyms/import', { key: tenant.key, body, headers });
const exportFile = async (tenant: Key, format: string, extra = '') => {
  const res = await h.api.call('GET', `/v1/synonyms/export?format=${format}${extra}`, { key: tenant.key });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body as string;
};
const rules = async (tenant: Key, extra = '') =>
  (await h.api.call('GET', `/v1/synonyms?limit=200${extra}`, { key: tenant.key })).body.data as Array<Record<string, any>>;
const brief = (r: Record<string, any>) => (r.kind === 'equivalent' ? r.terms.join(',') : `${r.input}=>${r.outputs.join(',')}`);

// A tenant holding every kind of field, including texts that need escaping in each format.
const full = await h.tenant('Full');
for (const body of [
  { kind: 'equivalent', terms: ['tv', 'television', 'telly'] },
  { kind: 'equivalent', terms: ['أحمر', 'red'], locale: 'ar' },
  { kind: 'one_way', input: 'phone', outputs: ['mobile phone', 'cell phone'], conditions: { unless_terms: ['case'], require_terms: ['new'] } },
  { kind: 'equivalent', terms: ['a,b', 'c|d', 'say "hi"', 'x => y', '#tag', 'back\\slash'], set_key: 'odd', enabled: false },
  { kind: 'one_way', input: 'jogging', outputs: ['running'], set_key: 'sport' },
]) {
  const res = await h.api.call('POST', '/v1/synonyms', { key: full.key, body });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
}

for (const format of ['json', 'csv', 'solr']) {
  t.test(`${format}: an export imported again changes nothing, and copies a tenant exactly`, async (t) => {
    const before = await rules(full);
    const content = await exportFile(full, format);
    for (const mode of ['merge', 'replace']) {
      const res = await importFile(full, { format, content, mode });
      t.same(res.body, { created: 0, updated: 0, skipped: 5, deleted: 0, errors: [] }, mode);
    }
    t.same(await rules(full), before, 'rules untouched (ids, updated_at, source)');
    const copy = await h.tenant(`Copy ${format}`);
    t.match((await importFile(copy, { format, content })).body, { created: 5, updated: 0, skipped: 0, errors: [] });
    t.equal(await exportFile(copy, format), content, 'same file from the copy');
    t.same(
      (await rules(copy)).map((r) => r.source),
      ['import', 'import', 'import', 'import', 'import'],
    );
  });
}

t.test('solr: comments, escapes, `a, b => c` as one one_way rule per left-hand term, optional set_key', async (t) => {
  const s = await h.tenant('Solr');
  const content = [
    '# a comment',
    '',
    'ipod, i-pod, i pod',
    'sea biscuit, sea biscit => seabiscuit',
    'dvd\\, blu-ray, disc player',
    'c\\=>d => e\\,f, g',
    '#@ {"set_key":"x","enabled":false}',
    'foo => bar',
  ].join('\n');
  const res = await importFile(s, { format: 'solr', content, set_key: 'media' });
  t.same(res.body, { created: 6, updated: 0, skipped: 0, deleted: 0, errors: [] });
  const got = await rules(s);
  t.same(
    got.map((r) => [r.kind, brief(r), r.set_key, r.enabled]),
    [
      ['equivalent', 'ipod,i-pod,i pod', 'media', true],
      ['one_way', 'sea biscuit=>seabiscuit', 'media', true],
      ['one_way', 'sea biscit=>seabiscuit', 'media', true],
      ['equivalent', 'dvd, blu-ray,disc player', 'media', true],
      ['one_way', 'c=>d=>e,f,g', 'media', true],
      ['one_way', 'foo=>bar', 'x', false],
    ],
  );
  t.same(
    got.map((r) => r.source),
    Array(6).fill('import'),
  );
});

t.test("merge updates matching rules and creates the rest; replace makes the file's sets exact", async (t) => {
  const m = await h.tenant('Modes');
  const seed =
    '[\n{"kind":"equivalent","terms":["sofa","couch"]},\n{"kind":"equivalent","terms":["tv","telly"]},\n{"kind":"one_way","input":"jog","outputs":["run"],"set_key":"sport"}\n]';
  t.match((await importFile(m, { content: seed })).body, { created: 3 });
  const [sofa] = await rules(m, '&q=sofa');

  const merge = await importFile(m, {
    content: '[{"kind":"equivalent","terms":["Couch","sofa"],"enabled":false},{"kind":"equivalent","terms":["cap","hat"]}]',
  });
  t.same(merge.body, { created: 1, updated: 1, skipped: 0, deleted: 0, errors: [] });
  const [updated] = await rules(m, '&q=sofa');
  t.match(updated, { id: sofa.id, terms: ['Couch', 'sofa'], enabled: false, source: 'import' }, 'same rule, new fields');
  t.equal((await rules(m)).length, 4, 'merge removes nothing');

  const replace = await importFile(m, { format: 'csv', mode: 'replace', content: 'kind,terms\nequivalent,cap|hat\nequivalent,shoe|sneaker\n' });
  t.same(replace.body, { created: 1, updated: 0, skipped: 1, deleted: 2, errors: [] });
  t.same((await rules(m)).map(brief).sort(), ['cap,hat', 'jog=>run', 'shoe,sneaker'], 'other sets untouched');

  const onlyErrors = await importFile(m, { format: 'solr', mode: 'replace', content: 'lonely\n' });
  t.match(onlyErrors.body, {
    created: 0,
    deleted: 0,
    errors: ['line 1: terms: an equivalent rule needs at least two different terms (compared after normalization)'],
  });
  t.equal((await rules(m)).length, 3, 'a file with only bad lines deletes nothing');

  const empty = await importFile(m, { format: 'solr', mode: 'replace', content: '# nothing\n' });
  t.same(empty.body, { created: 0, updated: 0, skipped: 0, deleted: 2, errors: [] }, 'an empty file empties the default set');
  t.same((await rules(m)).map(brief), ['jog=>run']);
  t.match((await importFile(m, { mode: 'replace', content: '[]', set_key: 'sport' })).body, { deleted: 1 }, 'or the set named by set_key');
});

t.test('bad lines are reported by number while the valid lines apply', async (t) => {
  const e = await h.tenant('Errors');
  const csv = [
    'kind,set_key,terms,input,outputs,unless_terms,require_terms,locale,enabled',
    'equivalent,,tv|television,,,,,,',
    'equivalent,,lonely,,,,,,',
    'one_way,,,phone,mobile,,,EN,',
    '"one_way",,,"multi',
    'line",cell,,,,yes',
    'equivalent,Bad Set,a|b,,,,,,',
    'equivalent,,television|TV,,,,,,',
    'one_way,,,x,,,,,',
    'equivalent,,a|b,,,,,,,extra',
    'equivalent,,red|أحمر,,,,,,',
    'equivalent,,احمر|red,,,,,,',
  ].join('\r\n');
  const res = await importFile(e, { format: 'csv', content: csv });
  t.equal(res.status, 200);
  t.match(res.body, { created: 2, updated: 0, skipped: 0 });
  t.same(
    res.body.errors.map((m: string) => m.split(':')[0]),
    ['line 3', 'line 4', 'line 5', 'line 7', 'line 8', 'line 9', 'line 10', 'line 12'],
  );
  t.match(res.body.errors, [
    /terms: an equivalent rule needs at least two/,
    /locale/,
    /enabled/,
    /set_key/,
    /the same rule as line 2/,
    /outputs: a one_way rule needs/,
    /10 cells but the header has 9 columns/,
    /the same rule as line 11/,
  ]);
  t.same((await rules(e)).map(brief), ['tv,television', 'red,أحمر']);

  const json =
    '[\n{"kind":"equivalent","terms":["a","b"]},\n  "text",\n{"kind":"one_way","input":"x",\n "outputs":[]},\n{"kind":"equivalent","terms":["c","d"],"id":"syn_x","source":"manual"}\n]';
  const j = await importFile(e, { content: json });
  t.same(j.body, {
    created: 2,
    updated: 0,
    skipped: 0,
    deleted: 0,
    errors: ['line 3: each item is a synonym rule object', 'line 4: outputs: a one_way rule needs at least one output'],
  });

  const solr = 'a, b\nx => y => z\n=> q\n#@ {"color":"red"}\nm, n\n#@ not json\nk => l\n';
  const s = await importFile(e, { format: 'solr', content: solr });
  t.match(s.body, { created: 0, skipped: 1 });
  t.same(
    s.body.errors.map((m: string) => m.split(':')[0]),
    ['line 2', 'line 3', 'line 4', 'line 5', 'line 6', 'line 7'],
  );
});

t.test('a file that cannot be read at all is a 400 and nothing applies', async (t) => {
  const u = await h.tenant('Unreadable');
  const cases: Array<[string, string, string]> = [
    ['json', '[\n{"kind":"equivalent","terms":["a","b"]},\n{"kind":\n]', 'invalid_json'],
    ['json', '{"kind":"equivalent"}', 'not_an_array'],
    ['csv', 'kind,colour\nequivalent,red', 'unknown_column'],
    ['csv', 'terms\na|b', 'missing_column'],
    ['csv', 'kind,terms\nequivalent,"a|b\n', 'unterminated_quote'],
  ];
  for (const [format, content, code] of cases) {
    const res = await importFile(u, { format, content });
    t.equal(res.status, 400, code);
    t.equal(res.body.error.code, 'invalid_import_content', code);
    t.match(res.body.error.details, [{ field: 'content', code, message: /^line \d+: / }], code);
  }
  t.match(
    (await importFile(u, { format: 'json', content: '[\n1,\n{"a":\n]' })).body.error.details[0].message,
    /^line 3: Unexpected token/,
    'the broken element',
  );
  t.same(await rules(u), []);
});

t.test('content up to 2,000,000 characters', async (t) => {
  const big = await h.tenant('Big');
  const line = `# ${'x'.repeat(97)}\n`;
  const max = line.repeat(20_000);
  t.equal(max.length, 2_000_000);
  const ok = await importFile(big, { format: 'solr', content: max });
  t.same([ok.status, ok.body.created], [200, 0]);
  const over = await importFile(big, { format: 'solr', content: `${max}#` });
  t.equal(over.status, 400);
  t.equal(over.body.error.code, 'validation_failed');
  t.match(over.body.error.details, [{ in: 'body', field: 'content', code: 'too_long' }]);
  const bad = await importFile(big, { format: 'xml', content: '' });
  t.match(bad.body.error.details, [{ field: 'format', code: 'invalid_value' }]);
});

t.test('2,000,000 Arabic characters, every one JSON-escaped, fit the import (its own body limit); other routes keep the default', async (t) => {
  const big = await h.tenant('Big Arabic');
  const max = `# ${'ع'.repeat(97)}\n`.repeat(20_000);
  t.equal(max.length, 2_000_000);
  const escaped = JSON.stringify({ format: 'solr', content: max }).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  t.ok(escaped.length > 11_000_000, `${escaped.length} bytes: well over the default 4 MiB`);
  const ok = await h.api.call('POST', '/v1/synonyms/import', { key: big.key, rawBody: escaped, headers: { 'content-type': 'application/json' } });
  t.same([ok.status, ok.body.created], [200, 0]);
  const other = await h.api.call('POST', '/v1/synonyms', { key: big.key, rawBody: escaped, headers: { 'content-type': 'application/json' } });
  t.same([other.status, other.body.error.code], [413, 'payload_too_large']);
});

t.test('Idempotency-Key replays an import; export can pick one set', async (t) => {
  const i = await h.tenant('Idem');
  const body = { format: 'solr', content: 'a, b\nc => d\n' };
  const first = await importFile(i, body, { 'idempotency-key': 'import-key-0001' });
  const again = await importFile(i, body, { 'idempotency-key': 'import-key-0001' });
  t.same([first.body.created, again.body.created, again.headers.get('idempotent-replayed')], [2, 2, 'true']);
  t.match(await exportFile(full, 'json', '&set_key=sport'), /^\[\n\{"kind":"one_way","input":"jogging","outputs":\["running"\],"set_key":"sport"\}\n\]\n$/);
});

t.test('a term holding a line break is refused on create, replace and import (a Solr export could not hold it)', async (t) => {
  const tenant = await h.tenant('Lines');
  const call = (method: string, path: string, body?: unknown) => h.api.call(method, path, { key: tenant.key, body });
  const made = await call('POST', '/v1/synonyms', { kind: 'equivalent', terms: ['tv\nset', 'television'] });
  t.equal(made.status, 400, 'create: 400, not a rule whose Solr export reads back as two lines');
  t.match(made.body.error, { code: 'validation_failed', details: [{ field: 'terms.0', code: 'line_break' }] });
  const ok = await call('POST', '/v1/synonyms', { kind: 'one_way', input: 'phone', outputs: ['mobile'] });
  t.equal(ok.status, 201);
  const put = await call('PUT', `/v1/synonyms/${ok.body.id}`, { kind: 'one_way', input: 'phone\r\ncase', outputs: ['mobile'] });
  t.match(put.body.error, { details: [{ field: 'input', code: 'line_break' }] }, 'replace: the same check');
  const cond = await call('PUT', `/v1/synonyms/${ok.body.id}`, {
    kind: 'one_way',
    input: 'phone',
    outputs: ['mobile'],
    conditions: { unless_terms: ['a\rb'] },
  });
  t.match(cond.body.error, { details: [{ field: 'conditions.unless_terms.0', code: 'line_break' }] });
  const csv = await importFile(tenant, { format: 'csv', content: 'kind,terms\nequivalent,"tv\nset|television"\nequivalent,a|b\n' });
  t.match(csv.body, { created: 1, errors: [/^line 2: terms\.0: /] }, 'import: that line is an error, the others apply');
  const solr = await exportFile(tenant, 'solr');
  const back = await importFile(tenant, { format: 'solr', content: solr, mode: 'replace' });
  t.match(back.body, { created: 0, updated: 0, deleted: 0, errors: [] }, 'so a Solr export imports back unchanged');
});
