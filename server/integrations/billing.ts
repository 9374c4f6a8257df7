/**
 * Stripe adapter (docs/product.md "Plans, trial and limits"; docs/ARCHITECTURE.md "The parts"),
 * through the official SDK: Checkout Sessions in subscription mode, Customer Portal sessions, and
 * webhook signature verification on the exact raw body. `apiBase` points the SDK at another host
 * (tests use a fake on loopback).
 *
 * The SDK is loaded when a provider is created, that is only on a server with Stripe configured:
 * loaded at boot it held about 4.5 MB of the JavaScript heap of every server, billing or not
 * (docs/decisions/025-server-as-shipped.md "SDKs loaded on first use"). It is required synchronously because
 * `createStripeBilling` and `verifyEvent` are synchronous.
 */
import { createRequire } from 'node:module';
import type Stripe from 'stripe';

const requireSdk = createRequire(import.meta.url);

export interface CheckoutRequest {
  priceId: string;
  /** Units of the price: 1, or the tenant's unit count for per-unit plans. */
  quantity: number;
  tenantId: string;
  tierId: string;
  interval: 'month' | 'year';
  /** Existing Stripe customer of the tenant, else the email Checkout pre-fills. */
  customerId: string | null;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
}

/** A verified webhook event, reduced to what the billing service reads. */
export interface BillingEvent {
  id: string;
  type: string;
  /** Seconds since the epoch (Stripe's `created`). */
  created: number;
  object: Record<string, unknown>;
}

export interface BillingProvider {
  /** @returns the Checkout page URL. @throws on a refused or failed API call */
  createCheckout(req: CheckoutRequest): Promise<string>;
  /** @returns the Customer Portal URL. @throws on a refused or failed API call */
  createPortal(customerId: string, returnUrl: string): Promise<string>;
  /** @throws when the signature does not match the raw body (or is too old) */
  verifyEvent(rawBody: Buffer, signature: string): BillingEvent;
}

/** The SDK connection options for `apiBase` (e.g. http://127.0.0.1:12111). */
function connection(apiBase: string | undefined) {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? ('http' as const) : ('https' as const);
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** Creates the Stripe provider. */
export function createStripeBilling(opts: { secretKey: string; webhookSecret: string; apiBase?: string }): BillingProvider {
  const StripeSdk = requireSdk('stripe') as typeof Stripe;
  const stripe = new StripeSdk(opts.secretKey, { ...connection(opts.apiBase), maxNetworkRetries: 1, timeout: 20_000 });
  return {
    async createCheckout(req) {
      const metadata = { tenant_id: req.tenantId, tier_id: req.tierId, interval: req.interval };
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: req.priceId, quantity: req.quantity }],
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        client_reference_id: req.tenantId,
        metadata,
        subscription_data: { metadata },
        ...(req.customerId ? { customer: req.customerId } : { customer_email: req.customerEmail }),
      });
      if (!session.url) throw new Error('No checkout URL returned');
      return session.url;
    },
    async createPortal(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return session.url;
    },
    verifyEvent(rawBody, signature) {
      const event = stripe.webhooks.constructEvent(rawBody, signature, opts.webhookSecret);
      return {
        id: event.id,
        type: event.type,
        created: event.created,
        object: event.data.object as unknown as Record<string, unknown>,
      };
    },
  };
}
