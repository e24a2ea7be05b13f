import { readFileSync, writeFileSync } from 'node:fs';
import { openBenchStore, recordSearchStatements } from './lib/statement-floor.js';

/**
 * bench/statement-compare: the engine statements the service sends for each search of the
 * bench:search mix (cache off), recorded from this checkout on a kept bench database
 * (`BENCH_KEEP=1 npm run bench:search`). `--save <file>` writes them; `--against <file>` (a set
 * another checkout saved) replays both sets in turns (plan + execution under EXPLAIN ANALYZE,
 * best of 4 per search) and compares every statement's rows. For a change of statement shape that
 * must not change an answer, measured without HTTP or the API's own work. Both sets must run on
 * the database's schema.
 *   npx tsx bench/statement-compare.ts <database url> --save <file> | --against <file>
 */
type Statement = { sql: string; bindings: unknown[] };
const [url, mode, file] = process.argv.slice(2);
if (!url || !['--save', '--against'].includes(mode) || !file)
  throw new Error('usage: tsx bench/statement-compare.ts <database url> --save <file> | --against <file>');
const { client, tenantId, mix } = await openBenchStore(url);
try {
  const mine = await recordSearchStatements({ DATABASE_URL: url, QUEUE_PREFIX: `psscompare${process.pid}` }, tenantId, mix);
  if (mode === '--save') {
    writeFileSync(file, JSON.stringify({ mix, recorded: mine }));
    process.stdout.write(`${mine.length} searches, ${mine.flat().length} statements saved to ${file}\n`);
  } else {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { mix: string[]; recorded: Statement[][] };
    if (saved.mix.join('\n') !== mix.join('\n')) throw new Error('the saved set is of another query mix');
    await compare(saved.recorded, mine, mix);
  }
} finally {
  await client.end();
}

async function compare(before: Statement[][], after: Statement[][], mix: string[]) {
  const best = { before: mix.map(() => Infinity), after: mix.map(() => Infinity) };
  for (let round = 0; round < 4; round++) {
    for (const side of round % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
      const set = side === 'before' ? before : after;
      for (let i = 0; i < set.length; i++) {
        let ms = 0;
        for (const st of set[i]) {
          const plan = (await client.query(`EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) ${st.sql}`, st.bindings)).rows[0]['QUERY PLAN'][0];
          ms += plan['Planning Time'] + plan['Execution Time'];
        }
        best[side][i] = Math.min(best[side][i], ms);
      }
    }
    process.stdout.write(`\rround ${round + 1} of 4`);
  }
  const differ: string[] = [];
  for (let i = 0; i < mix.length; i++) {
    const rows = async (set: Statement[]) => {
      const out: string[] = [];
      for (const st of set) out.push(JSON.stringify((await client.query(st.sql, st.bindings)).rows));
      return out;
    };
    if ((await rows(before[i])).join('\n') !== (await rows(after[i])).join('\n')) differ.push(decodeURIComponent(mix[i]));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  process.stdout.write(
    `\n${mix.length} searches: before ${mean(best.before).toFixed(3)} ms, after ${mean(best.after).toFixed(3)} ms a search (plan + execution, best of 4 in turns); ${differ.length} with other rows${differ.length ? `: ${differ.slice(0, 10).join(', ')}` : ''}\n`,
  );
  const moved = mix.map((m, i) => ({ q: decodeURIComponent(m), was: best.before[i], now: best.after[i] })).sort((a, b) => a.now - a.was - (b.now - b.was));
  for (const m of [...moved.slice(0, 5), ...moved.slice(-3)])
    process.stdout.write(`${(m.now - m.was).toFixed(2).padStart(7)} ms  ${m.was.toFixed(2).padStart(6)} -> ${m.now.toFixed(2).padStart(6)}  ${m.q}\n`);
}
