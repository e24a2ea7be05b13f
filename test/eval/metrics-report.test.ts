import t from 'tap';
import { selectCollections } from '../../scripts/eval/collections.js';
import { judgedAt, ndcgAt, parseJudgments, reciprocalRank } from '../../scripts/eval/metrics.js';
import { formatTable, scoreQuery, summarize, summaryLine } from '../../scripts/eval/report.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

t.test("nDCG@k: gain = grade, 1/log2(rank+1), ideal from the query's judgments, unjudged = 0", async (t) => {
  const judged = new Map([
    ['a', 3],
    ['b', 2],
    ['c', 0],
  ]);
  const ideal = 3 + 2 / Math.log2(3);
  t.ok(close(ndcgAt(10, ['a', 'b'], judged), 1), 'ideal order');
  t.ok(close(ndcgAt(10, ['b', 'a'], judged), (2 + 3 / Math.log2(3)) / ideal), 'swapped');
  t.ok(close(ndcgAt(10, ['x', 'a', 'b'], judged), (3 / Math.log2(3) + 2 / 2) / ideal), 'an unjudged result counts 0 and pushes the others down');
  t.ok(close(ndcgAt(1, ['b', 'a'], judged), 2 / 3), 'cut at k, ideal cut at k too');
  t.equal(ndcgAt(10, ['a'], new Map([['a', 0]])), 0, 'no relevant judgment: 0');
  t.equal(judgedAt(10, ['a', 'x', 'c'], judged), 0.2);
  t.equal(reciprocalRank(['c', 'x', 'b'], judged), 1 / 3, 'first result graded 2 or more');
  t.equal(reciprocalRank(['c'], judged), 0);
});

t.test('parseJudgments: query,docid,rating with a header, commas and quotes in queries', async (t) => {
  const j = parseJudgments('query,docid,rating\n16 gb memory card,cf1,3\n"tv, 55 inch",cf2,0\r\nblender,cf3,2\n\n');
  t.same([...j.keys()], ['16 gb memory card', 'tv, 55 inch', 'blender']);
  t.equal(j.get('16 gb memory card')?.get('cf1'), 3);
});

t.test('scoreQuery and summarize: every system on the same judgments; the summary line names the ratios to the BM25 library', async (t) => {
  const judged = new Map([
    ['a', 3],
    ['b', 3],
  ]);
  const rows = [
    scoreQuery({ query: 'q1', judged, lists: { ours: ['a', 'b'], pg: ['b', 'x', 'a'], minisearch: ['x', 'y'], 'minisearch-tuned': ['x', 'a'] } }, 10),
    scoreQuery({ query: 'q0', judged, lists: { ours: ['x', 'a'], pg: ['a', 'b'], minisearch: ['a', 'b'], 'minisearch-tuned': ['a', 'b'] } }, 10),
  ];
  t.equal(rows[0].ndcg.ours, 1);
  t.equal(rows[0].ndcg.minisearch, 0);
  t.equal(rows[1].condensed.ours, ndcgAt(10, ['a'], judged), 'condensed drops unjudged results before cutting');
  const s = summarize('demo', rows);
  t.ok(close(s.ndcg.ours, (1 + rows[1].ndcg.ours) / 2));
  t.equal(s.ndcg.minisearch, 0.5);
  const line = summaryLine(s);
  t.match(line, /^demo +nDCG@10 +ours 0\.\d{4} +pg-fts 0\.\d{4} +ms-def 0\.5000 +ms-tuned 0\.\d{4}/);
  t.match(line, new RegExp(`ours/ms-def ${(s.ndcg.ours / 0.5).toFixed(3)} `));
  t.match(line, /\(2 queries\)$/);
  const table = formatTable('demo', rows).split('\n');
  t.match(table[0], /^\[demo\] query +ours +pg-fts +ms-def +ms-tuned +judged$/);
  t.match(table[1], /^q0 /, 'rows by query, so two runs diff line by line');
});

t.test('selectCollections: both raw collections by default, one with --collection, chorus+categories with --categories', async (t) => {
  const names = (only?: string, cats = false) => selectCollections(only, cats).map((c) => c.name);
  t.same(names(), ['chorus', 'crowdflower']);
  t.same(names(undefined, true), ['chorus', 'chorus+categories', 'crowdflower']);
  t.same(names('crowdflower', true), ['crowdflower']);
  t.same(names('chorus'), ['chorus']);
  t.throws(() => names('flipkart'), /chorus or crowdflower/);
});
