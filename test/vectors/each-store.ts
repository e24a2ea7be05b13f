import t, { type Test } from 'tap';
import { setup, type Harness } from '../helpers/harness.js';
import { startQdrantFake } from './qdrant-fake.js';

type QdrantFake = Awaited<ReturnType<typeof startQdrantFake>>;

/**
 * Runs `body` as one subtest per vector store: the built-in store and the Qdrant adapter against
 * the fake server (passed on, to make it fail), each with its own harness (closed when its subtest ends).
 */
export async function eachStore(body: (t: Test, h: Harness, name: string, qdrant: QdrantFake) => Promise<void>): Promise<void> {
  const qdrant = await startQdrantFake('secret');
  t.teardown(() => qdrant.close());
  const stores: Record<string, Record<string, string>> = {
    postgres: {},
    qdrant: { VECTOR_STORE: 'qdrant', QDRANT_URL: qdrant.url, QDRANT_API_KEY: 'secret' },
  };
  for (const [name, env] of Object.entries(stores)) {
    t.test(name, async (t) => {
      const h = await setup(env);
      t.teardown(() => h.close());
      t.equal(h.api.deps.vectors.name, name, 'the store under test');
      await body(t, h, name, qdrant);
    });
  }
}
