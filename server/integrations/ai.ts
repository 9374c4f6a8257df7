/**
 * AI adapter (docs/ARCHITECTURE.md "The parts"; docs/product.md "Reports", "AI photo scanner") over the official
 * `openai` SDK. Every AI call goes through the server, so the key never reaches the browser.
 * `baseUrl` points the SDK at any OpenAI-compatible API (tests use a fake on loopback).
 */
import type OpenAI from 'openai';

export interface AiOptions {
  apiKey: string | undefined;
  baseUrl: string;
  /** Chat model of the report narrative, e.g. gpt-4o. */
  reportModel: string;
  /** Vision model of the photo scanner, e.g. gpt-4o-mini. */
  scanModel: string;
  /** Longest wait for one call, in milliseconds. */
  timeoutMs: number;
}

export interface AiProvider {
  /**
   * One chat completion with the report model: a system instruction and a user message.
   * @returns the first choice's message content, trimmed.
   * @throws on an API error, a timeout, or an empty reply.
   */
  writeNarrative(prompt: { system: string; user: string }): Promise<string>;
  /**
   * One chat completion with the scan model: a system instruction, and a user message with the
   * text and the photo (a JPEG, sent as a data URI at detail high), at most
   * {@link SCAN_MAX_TOKENS} tokens, asking for JSON that matches `schema` (strict structured
   * output; servers without it may answer free text, which the caller parses).
   * @returns the first choice's message content, trimmed.
   * @throws AiTimeoutError past the timeout; another error on an API error or an empty reply.
   */
  countItems(request: { system: string; user: string; imageJpeg: Buffer; schema: { name: string; schema: Record<string, unknown> } }): Promise<string>;
}

/** Largest reply of a scan, in tokens (docs/product.md "Constants and limits"). */
export const SCAN_MAX_TOKENS = 1000;

/** Thrown when the model did not answer within the configured timeout. */
export class AiTimeoutError extends Error {}

/** Creates the provider, or null when no API key is configured (AI features off). */
export function createAi(opts: AiOptions): AiProvider | null {
  if (!opts.apiKey) return null;
  const options = {
    apiKey: opts.apiKey,
    baseURL: opts.baseUrl,
    timeout: opts.timeoutMs,
    // A report answers with its computed summary instead of waiting through retries.
    maxRetries: 0,
    // Explicit nulls: the SDK would otherwise read these from process.env behind config.ts's back.
    organization: null,
    project: null,
    webhookSecret: null,
  };
  // The SDK is loaded with the first call: a server without a key never holds it in memory.
  let sdk: Promise<OpenAI> | undefined;
  const connect = () => (sdk ??= import('openai').then(({ default: OpenAI }) => new OpenAI(options)));
  return {
    async writeNarrative({ system, user }) {
      const client = await connect();
      const completion = await client.chat.completions.create({
        model: opts.reportModel,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      });
      return contentOf(completion);
    },
    async countItems({ system, user, imageJpeg, schema }) {
      const client = await connect();
      try {
        const completion = await client.chat.completions.create({
          model: opts.scanModel,
          messages: [
            { role: 'system', content: system },
            {
              role: 'user',
              content: [
                { type: 'text', text: user },
                { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${imageJpeg.toString('base64')}`, detail: 'high' } },
              ],
            },
          ],
          max_tokens: SCAN_MAX_TOKENS,
          response_format: { type: 'json_schema', json_schema: { name: schema.name, strict: true, schema: schema.schema } },
        });
        return contentOf(completion);
      } catch (err) {
        // Loaded already by the call that failed.
        const { APIConnectionTimeoutError } = await import('openai');
        if (err instanceof APIConnectionTimeoutError) throw new AiTimeoutError(err.message);
        throw err;
      }
    },
  };
}

/** The first choice's text, trimmed. @throws when there is none */
function contentOf(completion: OpenAI.Chat.Completions.ChatCompletion): string {
  const content = completion.choices[0]?.message?.content?.trim();
  if (!content) throw new Error('The model returned no text');
  return content;
}
