/**
 * AI adapter (docs/ARCHITECTURE.md "The parts"; docs/product.md "Reports") over the official
 * `openai` SDK. Every AI call goes through the server, so the key never reaches the browser.
 * `baseUrl` points the SDK at any OpenAI-compatible API (tests use a fake on loopback).
 */
import type OpenAI from 'openai';

export interface AiOptions {
  apiKey: string | undefined;
  baseUrl: string;
  /** Chat model of the report narrative, e.g. gpt-4o. */
  reportModel: string;
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
}

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
      const content = completion.choices[0]?.message?.content?.trim();
      if (!content) throw new Error('The model returned no text');
      return content;
    },
  };
}
