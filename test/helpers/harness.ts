import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../shared/platform/config.js';
import { createDeps, type Deps } from '../../shared/deps.js';
import { createLogger } from '../../shared/platform/logger.js';
import { createApp } from '../../api/app.js';
import { createTenantWithKey } from '../../shared/access/tenants.js';
import { createTestDatabase } from './db.js';
import { clearRedisPrefix } from '../../scripts/lib/fresh-database.js';

export interface Api {
  url: string;
  deps: Deps;
  server: Server;
  /** fetch against this API; JSON bodies are encoded, responses decoded. */
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export interface Harness {
  config: Config;
  /** The first API instance. */
  api: Api;
  /** Starts another API process-equivalent on the same database and Redis. */
  startApi(): Promise<Api>;
  /** A new tenant with an admin secret key. */
  tenant(name?: string): Promise<{ id: string; key: string; keyId: string }>;
  close(): Promise<void>;
}

/** Real Postgres (own database) and Redis (own prefix) for one test file. */
export async function setup(env: Record<string, string> = {}): Promise<Harness> {
  const database = await createTestDatabase();
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tenants without a subscription are not capped by the free plan in tests unless a test asks for it.
    BILLING_DEFAULT_PLAN: 'enterprise',
    // Every answer of every API test is checked against its route's documented schema.
    RESPONSE_SCHEMA_CHECK: 'true',
    ...env,
  });
  const apis: Api[] = [];
  const startApi = async () => {
    const api = await listen(config);
    apis.push(api);
    return api;
  };
  const api = await startApi();
  return {
    config,
    api,
    startApi,
    async tenant(name = 'Test store') {
      const { tenant, key, keyId } = await createTenantWithKey(api.deps, { name, locales: ['en', 'ar'], defaultLocale: 'en' });
      return { id: tenant.id, key, keyId };
    },
    async close() {
      for (const a of apis) await a.close();
      await clearRedisPrefix(config.redisUrl, prefix);
      await database.drop();
    },
  };
}

async function listen(config: Config): Promise<Api> {
  const deps = createDeps(config, { logger: createLogger(config.logLevel), role: 'api' });
  await deps.start();
  const server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    deps,
    server,
    call: (method, path, opts = {}) => call(url, method, path, opts),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await deps.close();
    },
  };
}

export async function call(base: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // leave as text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
