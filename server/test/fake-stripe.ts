/**
 * A fake Stripe API on loopback for tests: it accepts the form-encoded requests the official SDK
 * sends (bracket keys, e.g. `line_items[0][price]`), records them, and answers Checkout and
 * Customer Portal sessions in Stripe's JSON shape. Anything else answers a Stripe-style 404.
 */
import { createServer, type Server } from 'node:http';
import Stripe from 'stripe';

export interface RecordedRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  /** Makes the next calls fail with a Stripe API error (500) until reset. */
  failing: boolean;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const state = { failing: false };
  let seq = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, form: new URLSearchParams(body), headers: req.headers });
      res.setHeader('content-type', 'application/json');
      if (state.failing) {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Something went wrong' } }));
        return;
      }
      seq++;
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        res.end(JSON.stringify({ id: `cs_test_${seq}`, object: 'checkout.session', mode: 'subscription', url: `https://checkout.stripe.com/c/pay/cs_test_${seq}` }));
      } else if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        res.end(JSON.stringify({ id: `bps_${seq}`, object: 'billing_portal.session', url: `https://billing.stripe.com/p/session/bps_${seq}` }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    requests,
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}

/** Signs `event` as Stripe would for `secret`; returns the body and the Stripe-Signature header. */
export function signedEvent(event: object, secret: string, timestamp?: number): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  const signature = new Stripe('sk_test_unused').webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
  return { payload, signature };
}
