import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible chat-completions server (POST /v1/chat/completions) for translation
 * tests and benches. It answers the way the OpenAI API does: a `chat.completion` object whose
 * message content is the JSON the request's `response_format` asked for, `usage` token counts,
 * 429 with `retry-after-ms` and an error body, or no answer at all.
 *
 * Modes: `translate` (a word dictionary, unknown Latin words transliterated letter by letter into
 * Arabic, placeholders and digits kept); `mangle` (every placeholder replaced by a misspelt word,
 * each digit changed: what a careless model does to brands, codes and numbers); `echo` (the source
 * back unchanged); `rate_limit` (the first `rateLimited` requests get 429, then translate); `hang`
 * (chat and embeddings requests are never answered: the client must time out; `abandoned` counts
 * those whose client closed the connection). `failNext` answers the next chat requests 500 (a
 * server error, not charged); `onAnswer` runs just before a translation answer is sent (a test
 * injects a fault there: the provider has answered, what follows must cope).
 */
export type FakeMode = 'translate' | 'mangle' | 'echo' | 'rate_limit' | 'hang';

export interface FakeOpenAi {
  url: string;
  /** Parsed request bodies, in arrival order. */
  requests: any[];
  /** Requests answered with 429 so far. */
  rateLimitedCount: number;
  /** Requests held unanswered (mode `hang`) whose client has since closed the connection. */
  abandoned: number;
  /** Token usage of each chat answer sent (what the provider charged for), in order. */
  answered: Array<{ prompt_tokens: number; completion_tokens: number }>;
  /** Chat requests still to be answered 500 before translating again. */
  failNext: number;
  /** Awaited just before each chat answer is sent. */
  onAnswer?: () => Promise<void> | void;
  mode: FakeMode;
  /** Delay before each answer (changeable while running). */
  latencyMs: number;
  close(): Promise<void>;
}

const LETTERS: Record<string, string> = {
  a: 'ا',
  b: 'ب',
  c: 'ك',
  d: 'د',
  e: 'ي',
  f: 'ف',
  g: 'ج',
  h: 'ه',
  i: 'ي',
  j: 'ج',
  k: 'ك',
  l: 'ل',
  m: 'م',
  n: 'ن',
  o: 'و',
  p: 'ب',
  q: 'ق',
  r: 'ر',
  s: 'س',
  t: 'ت',
  u: 'و',
  v: 'ف',
  w: 'و',
  x: 'كس',
  y: 'ي',
  z: 'ز',
};

export const DICTIONARY: Record<string, string> = {
  "men's": 'رجالي',
  men: 'رجالي',
  mens: 'رجالي',
  wrist: 'يد',
  watch: 'ساعة',
  watches: 'ساعات',
  analog: 'تناظرية',
  with: 'مع',
  leather: 'جلد',
  strap: 'حزام',
  coffee: 'قهوة',
  table: 'طاولة',
  wooden: 'خشبية',
  wood: 'خشب',
  black: 'أسود',
  red: 'أحمر',
  dress: 'فستان',
  cotton: 'قطن',
  phone: 'هاتف',
  case: 'غطاء',
  for: 'ل',
  and: 'و',
  the: 'ال',
  a: '',
  of: 'من',
  bottle: 'زجاجة',
  water: 'ماء',
  steel: 'فولاذ',
  pack: 'عبوة',
  shoes: 'حذاء',
  running: 'جري',
  women: 'نسائي',
  bag: 'حقيبة',
  laptop: 'حاسوب',
  screen: 'شاشة',
  inch: 'بوصة',
  kitchen: 'مطبخ',
  chair: 'كرسي',
  color: 'اللون',
  colour: 'اللون',
  blue: 'أزرق',
  size: 'المقاس',
  large: 'كبير',
  small: 'صغير',
  new: 'جديد',
  classic: 'كلاسيكي',
  smart: 'ذكية',
};

function translateWord(word: string): string {
  const lower = word.toLowerCase();
  if (lower in DICTIONARY) return DICTIONARY[lower];
  if (!/[a-z]/i.test(word)) return word;
  return [...lower].map((ch) => LETTERS[ch] ?? ch).join('');
}

/** Dictionary translation of free text; placeholders, digits and punctuation stay where they are. */
export function fakeTranslate(text: string): string {
  return text
    .split(/(\{\{P\d+\}\}|<[^>]*>)/)
    .map((part, i) => (i % 2 ? part : part.replace(/[A-Za-z][A-Za-z']*/g, translateWord)))
    .join('')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function mangle(text: string): string {
  return fakeTranslate(text.replace(/\{\{P\d+\}\}/g, 'Samsnug')).replace(/\d/g, (d) => String((Number(d) + 1) % 10));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Problems of a request against the chat-completions request shape our adapter relies on. */
function requestProblems(body: any): string[] {
  const problems: string[] = [];
  if (typeof body?.model !== 'string' || !body.model) problems.push('model');
  if (!Array.isArray(body?.messages) || !body.messages.every((m: any) => ['system', 'user', 'assistant'].includes(m?.role) && typeof m.content === 'string'))
    problems.push('messages');
  const rf = body?.response_format;
  if (rf && !(rf.type === 'json_schema' && typeof rf.json_schema?.name === 'string' && typeof rf.json_schema?.schema === 'object'))
    problems.push('response_format');
  return problems;
}

/** Dimensions of the fake's embeddings unless the request asks for others. */
export const EMBEDDING_DIMS = 8;

/**
 * A deterministic embedding: letter counts folded into `dims` slots, so texts sharing letters are
 * close. As base64 of float32 when asked (the openai package asks for base64 by default).
 */
export function fakeEmbedding(text: string, dims: number, format?: string): number[] | string {
  const v = new Float32Array(dims);
  for (const ch of text.toLowerCase()) if (/\p{L}/u.test(ch)) v[ch.codePointAt(0)! % dims] += 1;
  return format === 'base64' ? Buffer.from(v.buffer).toString('base64') : Array.from(v);
}

/** What OpenAI's /v1/embeddings rejects: no model, input not a string or a non-empty array of at most 2048 non-empty strings. */
function embeddingProblems(body: any): string[] {
  const problems: string[] = [];
  if (typeof body.model !== 'string' || !body.model) problems.push('model is required');
  const input = body.input;
  if (!(
    typeof input === 'string' ||
    (Array.isArray(input) && input.length > 0 && input.length <= 2048 && input.every((x) => typeof x === 'string' && x.length > 0))
  ))
    problems.push('input must be a string or 1..2048 non-empty strings');
  if (body.encoding_format !== undefined && !['float', 'base64'].includes(body.encoding_format)) problems.push('encoding_format must be float or base64');
  for (const k of Object.keys(body)) if (!['model', 'input', 'encoding_format', 'dimensions', 'user'].includes(k)) problems.push(`unknown parameter ${k}`);
  return problems;
}

export async function startFakeOpenAi(opts: { mode?: FakeMode; latencyMs?: number; rateLimited?: number } = {}): Promise<FakeOpenAi> {
  const state: FakeOpenAi = {
    url: '',
    requests: [],
    rateLimitedCount: 0,
    abandoned: 0,
    answered: [],
    failNext: 0,
    mode: opts.mode ?? 'translate',
    latencyMs: opts.latencyMs ?? 0,
    close: async () => undefined,
  };
  const hanging: ServerResponse[] = [];
  const hang = (res: ServerResponse) => {
    hanging.push(res);
    res.on('close', () => state.abandoned++);
  };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && req.url !== '/v1/embeddings'))
      return send(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
    if (!/^Bearer \S+/.test(req.headers.authorization ?? ''))
      return send(res, 401, { error: { message: 'missing API key', type: 'invalid_request_error', code: 'invalid_api_key' } });
    const body = JSON.parse(await readBody(req));
    state.requests.push(body);
    if (req.url === '/v1/embeddings') {
      const problems = embeddingProblems(body);
      if (problems.length) return send(res, 400, { error: { message: `invalid request: ${problems.join(', ')}`, type: 'invalid_request_error' } });
      if (state.mode === 'hang') return hang(res);
      if (state.mode === 'rate_limit' && state.rateLimitedCount < (opts.rateLimited ?? 2)) {
        state.rateLimitedCount++;
        return send(res, 429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '20' });
      }
      const inputs: string[] = typeof body.input === 'string' ? [body.input] : body.input;
      const tokens = inputs.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
      return send(res, 200, {
        object: 'list',
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
        data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, body.dimensions ?? EMBEDDING_DIMS, body.encoding_format) })),
      });
    }
    const problems = requestProblems(body);
    if (problems.length) return send(res, 400, { error: { message: `invalid request: ${problems.join(', ')}`, type: 'invalid_request_error' } });
    if (state.mode === 'hang') return hang(res);
    if (state.mode === 'rate_limit' && state.rateLimitedCount < (opts.rateLimited ?? 2)) {
      state.rateLimitedCount++;
      return send(res, 429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '20' });
    }
    if (state.failNext > 0) {
      state.failNext--;
      return send(res, 500, { error: { message: 'The server had an error while processing your request.', type: 'server_error' } });
    }
    if (state.latencyMs) await new Promise((r) => setTimeout(r, state.latencyMs));
    const user = body.messages.find((m: any) => m.role === 'user');
    const items: Array<{ id: string; text: string }> = JSON.parse(user.content).items;
    const fn = state.mode === 'mangle' ? mangle : state.mode === 'echo' ? (t: string) => t : fakeTranslate;
    const content = JSON.stringify({ translations: items.map((i) => ({ id: i.id, text: fn(i.text) })) });
    const chars = body.messages.reduce((n: number, m: any) => n + m.content.length, 0);
    const usage = { prompt_tokens: Math.ceil(chars / 4), completion_tokens: Math.ceil(content.length / 4) };
    await state.onAnswer?.();
    state.answered.push(usage);
    send(res, 200, {
      id: `chatcmpl-${state.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = async () => {
    for (const res of hanging) res.destroy();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };
  return state;
}
