import t from 'tap';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

// A process on the built-in defaults never loads the vendor packages it does not use (typesense,
// @qdrant/js-client-rest, openai: together about 10 MB of an API process and 0.3-0.5 s to
// import); a process configured for them does. Both seen through module hooks in a child process.
const child = fileURLToPath(new URL('../helpers/vendor-imports.child.ts', import.meta.url));
const run = promisify(execFile);

async function loadedWith(env: Record<string, string>): Promise<string[]> {
  const base = { ...process.env };
  for (const k of ['SEARCH_ENGINE', 'TYPESENSE_URL', 'TYPESENSE_API_KEY', 'VECTOR_STORE', 'QDRANT_URL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY']) delete base[k];
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child], { env: { ...base, ...env }, timeout: 60_000 });
  return stdout.split('\n').filter(Boolean);
}

t.test('the built-in defaults load none of them', async (t) => {
  t.same(await loadedWith({}), []);
});

t.test('a process configured for Typesense, Qdrant and an OpenAI-compatible server loads each', async (t) => {
  const got = await loadedWith({
    SEARCH_ENGINE: 'typesense',
    TYPESENSE_URL: 'http://127.0.0.1:1',
    TYPESENSE_API_KEY: 'k',
    VECTOR_STORE: 'qdrant',
    QDRANT_URL: 'http://127.0.0.1:1',
    OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
  });
  t.same(got, ['@qdrant/js-client-rest', 'openai', 'typesense']);
});
