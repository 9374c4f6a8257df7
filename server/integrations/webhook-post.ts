/**
 * One attempt of a webhook delivery (docs/product.md "Webhooks", docs/decisions/050-webhooks.md):
 * a POST of the event's envelope to a company's endpoint, signed the Standard Webhooks way with
 * the `standardwebhooks` library (https://www.standardwebhooks.com/: headers `webhook-id`,
 * `webhook-timestamp` in Unix seconds, `webhook-signature` `v1,<base64 HMAC-SHA256>`).
 *
 * The URL is the company's, so the request goes through the address guard
 * (integrations/public-address.ts): its host's addresses are resolved and checked at every
 * attempt and the connection is pinned to them. Redirects are not followed (a 3xx is a failed
 * attempt: the receiver gives its final URL). One time limit covers the whole attempt, and at
 * most `maxResponseBytes` of the answer are read (the body is not kept): a receiver cannot hold
 * the sender or fill its memory.
 */
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { AddressRefused, pinnedLookup, publicAddresses, type AddressGuardOptions } from './public-address';

export interface WebhookPostOptions extends AddressGuardOptions {
  /** Longest wait for the whole attempt (connection, answer, body read), in milliseconds. */
  timeoutMs: number;
  /** Most bytes of the answer read before the connection is closed. */
  maxResponseBytes: number;
}

/** A message to send: the event's id, the endpoint's secret (`whsec_...`) and the JSON body. */
export interface SignedMessage {
  url: string;
  secret: string;
  /** The `webhook-id` (the event's id, the same at every attempt). */
  id: string;
  /** The attempt's time: `webhook-timestamp` and part of the signed content. */
  sentAt: Date;
  /** The envelope as JSON text, sent as it was signed. */
  body: string;
}

/** How an attempt ended: `ok` for a 2xx answer; else the reason, worded for the delivery log. */
export interface AttemptOutcome {
  ok: boolean;
  /** The answer's HTTP status; null when none came. */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed ('Answered 500', 'No answer within 10 seconds'); null when it succeeded. */
  error: string | null;
}

/** '10 seconds', '0.5 seconds', '1 second'. */
const seconds = (ms: number) => {
  const s = Math.round(ms / 100) / 10;
  return `${s} ${s === 1 ? 'second' : 'seconds'}`;
};

/** The person-facing reason of a URL the guard refused. */
function refusalOf(err: AddressRefused): string {
  if (err.reason === 'not_http') return 'URL must start with https:// or http://';
  if (err.reason === 'private') return 'URL points to a private or local address';
  return `${err.host} was not found`;
}

/** The Standard Webhooks headers of `message`, signed with its secret. */
export function signedHeaders(message: Omit<SignedMessage, 'url'>): Record<string, string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(message.secret).sign(message.id, message.sentAt, message.body),
  };
}

/** POSTs `body` to `url` on the checked `addresses`; settles with the status once at most `maxBytes` of the answer were read. */
function post(url: URL, addresses: string[], headers: Record<string, string>, body: string, maxBytes: number, signal: AbortSignal): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup(addresses),
        // A fresh connection per attempt: a pooled socket could have been opened for another check.
        agent: false,
        signal,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'InventoryManager-Webhooks/1.0' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // The answer's body is not kept; past the limit the rest is not waited for.
          if (size > maxBytes) {
            res.destroy();
            resolve(status);
          }
        });
        res.on('end', () => resolve(status));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Makes one attempt of `message` (see the module's comment).
 * @returns the outcome; never throws (a refused URL, a connection error or the time limit are
 *   failed attempts).
 */
export async function postWebhook(message: SignedMessage, opts: WebhookPostOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const ended = (statusCode: number | null, error: string | null): AttemptOutcome => ({
    ok: error === null,
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
  try {
    const url = new URL(message.url);
    const addresses = await publicAddresses(url, opts);
    if (deadline.signal.aborted) return ended(null, `No answer within ${seconds(opts.timeoutMs)}`);
    const status = await post(url, addresses, signedHeaders(message), message.body, opts.maxResponseBytes, deadline.signal);
    return status >= 200 && status <= 299 ? ended(status, null) : ended(status, `Answered ${status}`);
  } catch (err) {
    if (err instanceof AddressRefused) return ended(null, refusalOf(err));
    if (deadline.signal.aborted) return ended(null, `No answer within ${seconds(opts.timeoutMs)}`);
    const code = (err as { code?: string }).code;
    return ended(null, code ? `Could not connect (${code})` : 'Could not connect');
  } finally {
    clearTimeout(timer);
  }
}
