/**
 * A fake OpenAI-compatible API on loopback for tests: POST /v1/chat/completions records the
 * request and answers in the real response shape (`chat.completion` with one choice), or fails
 * as told: 'error' answers 500 with an OpenAI-style error body, 'slow' answers only after
 * `delayMs`, 'empty' answers a choice without content. The reply is a fixed text, or computed from
 * the request (a vision scan answering with the item ids its JSON schema allows, say).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

/** A part of a user message with an image (vision requests). */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: string } };

export interface ChatRequest {
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string | ContentPart[] }[];
    max_tokens?: number;
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  };
}

/** The item ids a scan request's strict JSON schema allows (modules/scans/detections.ts). */
export function allowedItemIds(body: ChatRequest['body']): string[] {
  const schema = body.response_format?.json_schema?.schema as
    | { properties?: { items?: { items?: { properties?: { item_id?: { enum?: string[] } } } } } }
    | undefined;
  return schema?.properties?.items?.items?.properties?.item_id?.enum ?? [];
}

export type FakeOpenAiMode = 'ok' | 'error' | 'slow' | 'empty';

export interface FakeOpenAi {
  /** Base URL for the SDK (ends in /v1). */
  url: string;
  requests: ChatRequest[];
  mode: FakeOpenAiMode;
  /** The assistant message content answered in 'ok' and 'slow' modes, or how to make it from the request. */
  reply: string | ((body: ChatRequest['body']) => string);
  /** Delay of the 'slow' mode, in milliseconds. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const timers = new Set<NodeJS.Timeout>();
  let seq = 0;
  const answer = (res: ServerResponse, status: number, body: object) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const completion = (model: string, content: string | null) => ({
    id: `chatcmpl-fake${++seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
  });

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        answer(res, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error', param: null, code: null } });
        return;
      }
      const body = JSON.parse(raw) as ChatRequest['body'];
      fake.requests.push({ headers: req.headers, body });
      const reply = () => (typeof fake.reply === 'function' ? fake.reply(body) : fake.reply);
      if (fake.mode === 'error') {
        answer(res, 500, { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
      } else if (fake.mode === 'empty') {
        answer(res, 200, completion(body.model, null));
      } else if (fake.mode === 'slow') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer(res, 200, completion(body.model, reply()));
        }, fake.delayMs);
        timers.add(timer);
      } else {
        answer(res, 200, completion(body.model, reply()));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const fake: FakeOpenAi = {
    url: `http://127.0.0.1:${port}/v1`,
    requests: [],
    mode: 'ok',
    reply: '## Narrative\n\nWritten by the model.',
    delayMs: 2_000,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
