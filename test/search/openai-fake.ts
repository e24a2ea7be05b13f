import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCall {
  body: Record<string, any>;
  /** The shopper query the adapter sent (from the user message's JSON). */
  query: string;
  /** Set once the fake has sent its answer. */
  answered: boolean;
}

export type FakeReply =
  { json: unknown; delayMs?: number; promptTokens?: number; completionTokens?: number } | { status: number; error: string; type?: string; delayMs?: number };

/**
 * A local server that answers like OpenAI's `POST /v1/chat/completions`: the documented response
 * object (choices[].message.content, usage) and error bodies ({"error": {message, type, code}}),
 * with the delay and status the test asks for.
 */
export class FakeOpenAi {
  calls: FakeCall[] = [];
  /** Decides each answer; replies queued in `next` are used first. */
  reply: (call: FakeCall) => FakeReply = () => ({ json: { text: '', filters: {}, sort: null } });
  next: FakeReply[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer(
      (req, res) =>
        void this.handle(req)
          .then(({ status, body }) => {
            res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
          })
          .catch(() => res.destroy()),
    );
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
    return this;
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return { status: 404, body: { error: { message: 'not found', type: 'invalid_request_error', code: null } } };
    if (!String(req.headers.authorization ?? '').startsWith('Bearer '))
      return { status: 401, body: { error: { message: 'no key', type: 'invalid_request_error', code: 'invalid_api_key' } } };
    const body = JSON.parse(raw);
    const user = body.messages?.find((m: { role: string }) => m.role === 'user')?.content ?? '{}';
    const call: FakeCall = { body, query: JSON.parse(user).query ?? '', answered: false };
    this.calls.push(call);
    const r = this.next.shift() ?? this.reply(call);
    if (r.delayMs) await new Promise((done) => setTimeout(done, r.delayMs));
    call.answered = true;
    if ('status' in r) return { status: r.status, body: { error: { message: r.error, type: r.type ?? 'server_error', code: null } } };
    return {
      status: 200,
      body: {
        id: `chatcmpl-${this.calls.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(r.json), refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: r.promptTokens ?? 1000,
          completion_tokens: r.completionTokens ?? 50,
          total_tokens: (r.promptTokens ?? 1000) + (r.completionTokens ?? 50),
        },
      },
    };
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()));
  }
}

/** A model answer in the rewrite schema. */
export const rewriteAnswer = (
  text: string,
  f: { brand?: string[]; category?: string[]; price_min?: number | null; price_max?: number | null; attributes?: Array<{ name: string; value: string }> } = {},
  sort: string | null = null,
) => ({
  text,
  sort,
  filters: { brand: f.brand ?? [], category: f.category ?? [], price_min: f.price_min ?? null, price_max: f.price_max ?? null, attributes: f.attributes ?? [] },
});
