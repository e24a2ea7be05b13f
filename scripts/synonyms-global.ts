import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps, type Deps } from '../shared/deps.js';
import { AppError } from '../shared/platform/errors.js';
import { synonymService } from '../shared/synonyms/service.js';
import { SynonymIn } from '../shared/synonyms/rule.js';
import { normalizeText } from '../shared/text/normalize.js';
import { FORMATS, type Format } from '../shared/synonyms/formats.js';
import { parseCli, reportFailure } from './lib/cli.js';

/** Operator CLI for the platform's global synonym rules (applied to every tenant unless a search sets global_synonyms: false). */
const USAGE = `usage: npx tsx scripts/synonyms-global.ts <command>
  list [--q text]                               print global rules, one JSON object per line
  add '<SynonymIn JSON>'                        e.g. add '{"kind":"equivalent","terms":["tv","television"]}'
  add --line 'a, b => c'                        one Solr-syntax line (merged like an import)
  remove <id>
  import <file> [--format json|csv|solr] [--mode merge|replace]   format from the extension (.txt = solr) when omitted
  export [--format json|csv|solr]               print the global rules as a file`;

const { values, positionals } = parseCli(USAGE, {
  allowPositionals: true,
  options: { q: { type: 'string' }, line: { type: 'string' }, format: { type: 'string' }, mode: { type: 'string', default: 'merge' } },
});
const [command, arg] = positionals;
const fail = (message: string): never => {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
};
const formatOf = (file?: string): Format => {
  const f =
    values.format ??
    (file ? ({ '.json': 'json', '.csv': 'csv', '.txt': 'solr', '.solr': 'solr' } as Record<string, string>)[extname(file).toLowerCase()] : 'json');
  return (FORMATS as readonly string[]).includes(f ?? '') ? (f as Format) : fail(`unknown format ${f ?? `of ${file}`}`);
};
if (!command) fail('no command');

let deps: Deps | undefined;
const print = (x: unknown) => process.stdout.write(`${typeof x === 'string' ? x : JSON.stringify(x)}\n`);
try {
  deps = createDeps(loadConfig());
  const service = synonymService(deps);
  switch (command) {
    case 'list': {
      let after: { at: string; id: string } | undefined;
      for (;;) {
        const rows = await deps.repos.synonyms.list(null, { after, limit: 500, q: values.q ? normalizeText(values.q) : undefined });
        for (const { cursor_at: _, ...row } of rows) print(row);
        if (rows.length < 500) break;
        after = { at: rows[rows.length - 1].cursor_at, id: rows[rows.length - 1].id };
      }
      break;
    }
    case 'add': {
      if (values.line) print(await service.import(null, { format: 'solr', content: values.line, mode: 'merge' }));
      else {
        const parsed = SynonymIn.safeParse(JSON.parse(arg ?? fail('add needs a rule (JSON) or --line')));
        if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
        else print(await service.create(null, parsed.data));
      }
      break;
    }
    case 'remove':
      if (!(await service.remove(null, arg ?? fail('remove needs an id')))) throw new Error(`no global rule ${arg}`);
      print({ deleted: true, id: arg });
      break;
    case 'import': {
      const file = arg ?? fail('import needs a file');
      const mode = values.mode === 'replace' ? 'replace' : values.mode === 'merge' ? 'merge' : fail('--mode is merge or replace');
      print(await service.import(null, { format: formatOf(file), content: await readFile(file, 'utf8'), mode }));
      break;
    }
    case 'export':
      process.stdout.write(await service.export(null, formatOf()));
      break;
    default:
      fail(`unknown command ${command}`);
  }
} catch (err) {
  if (err instanceof AppError && err.details) process.stderr.write(`${err.message} ${JSON.stringify(err.details)}\n`);
  else reportFailure(err);
  process.exitCode = 1;
} finally {
  await deps?.close();
}
