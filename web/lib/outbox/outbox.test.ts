/**
 * The outbox keeps every write before it is sent (docs/decisions/055-every-write-kept-first.md),
 * on an in-memory IndexedDB (fake-indexeddb) that outlives a "page": the module is loaded afresh
 * for the next page, as a reload or a closed tab would, and finds what the last one left.
 */
import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '../../../common/idempotency';
import type { PendingChange } from './pending-change';

type Outbox = typeof import('./outbox');

const USER = 'user-1';
const taps = (count: number) =>
  count === 0 ? null : { kind: 'taps' as const, path: count > 0 ? '/api/units/u1/inventory/i1/transfer' : '/api/units/u1/inventory/i1/consume', body: { quantity: Math.abs(count) }, label: `${count} towels`, href: '/unit/u1' };
const restock = { kind: 'restock' as const, path: '/api/units/u1/inventory/i1/transfer', body: { quantity: 3 }, label: '3 towels', href: '/unit/u1' };

/** What IndexedDB holds now, as the next page would read it. */
async function stored(): Promise<PendingChange[]> {
  const { createStore, values } = await import('idb-keyval');
  return values<PendingChange>(createStore('stock-keeper-outbox', 'changes'));
}

/** A page: the outbox module loaded afresh, with a window and a document to send page events to. */
async function openPage(): Promise<{ outbox: Outbox; window: EventTarget; document: EventTarget & { visibilityState: string } }> {
  vi.resetModules();
  const window = new EventTarget();
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  vi.stubGlobal('window', window);
  vi.stubGlobal('document', document);
  return { outbox: await import('./outbox'), window, document };
}

/** The requests the server got: path, key, body and whether it may outlive the page. */
interface Sent {
  path: string;
  key: string;
  body: unknown;
  keepalive: boolean;
}

/** A server answering every write with `answer(n)`, recording what it got. */
function server(answer: (sent: Sent, n: number) => Response | Promise<Response> = () => Response.json({ unit_quantity: 1, garage_quantity: 0, movement_ids: ['m'] })) {
  const got: Sent[] = [];
  const fetch = vi.fn(async (path: string, init: RequestInit) => {
    const sent = { path, key: (init.headers as Record<string, string>)[IDEMPOTENCY_KEY_HEADER]!, body: JSON.parse(init.body as string), keepalive: init.keepalive === true };
    got.push(sent);
    return answer(sent, got.length);
  });
  vi.stubGlobal('fetch', fetch);
  return got;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the outbox keeps a write from the moment it is made', () => {
  beforeEach(async () => {
    const { clear, createStore } = await import('idb-keyval');
    await clear(createStore('stock-keeper-outbox', 'changes'));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('keeps a write in IndexedDB before it is sent, and removes it once answered', async () => {
    const { outbox } = await openPage();
    let keptWhenSent: PendingChange[] = [];
    server(async () => {
      keptWhenSent = await stored();
      return Response.json({ ok: true });
    });
    const result = await outbox.sendChange(USER, 'key-1', restock);
    expect(result).toEqual({ answer: { ok: true } });
    expect(keptWhenSent.map((c) => [c.id, c.sentAt !== undefined])).toEqual([['key-1', true]]);
    await settled();
    expect(await stored()).toEqual([]);
  });

  it('adds quick taps up in one kept change, sent once when they pause, under the change’s key', async () => {
    const { outbox } = await openPage();
    const got = server();
    const results: unknown[] = [];
    for (const step of [1, 1, 1, -1, 1, 1]) outbox.addToTally(USER, 'row', step, taps, 50, (result) => results.push(result));
    await settled();
    const kept = await stored();
    expect(kept.map((c) => [c.tally, c.body, c.openUntil !== undefined])).toEqual([[{ group: 'row', count: 4 }, { quantity: 4 }, true]]);
    expect(got).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(got.map((s) => [s.path, s.body, s.key])).toEqual([['/api/units/u1/inventory/i1/transfer', { quantity: 4 }, kept[0]!.id]]);
    expect(results).toHaveLength(1);
    expect(await stored()).toEqual([]);
  });

  it('keeps nothing when the taps cancel out', async () => {
    const { outbox } = await openPage();
    const got = server();
    outbox.addToTally(USER, 'row', 1, taps, 30, () => undefined);
    outbox.addToTally(USER, 'row', -1, taps, 30, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(got).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('sends taps at once, past the page’s end, when the page is left within the pause; the next page sends them again with the same key', async () => {
    const first = await openPage();
    // The page ends before any answer arrives.
    const firstGot = server(() => new Promise<Response>(() => undefined));
    first.outbox.addToTally(USER, 'row', 1, taps, 500, () => undefined);
    first.outbox.addToTally(USER, 'row', 1, taps, 500, () => undefined);
    await settled();
    first.window.dispatchEvent(new Event('pagehide'));
    // The request leaves before anything is awaited: a page that ends now still sends it.
    await Promise.resolve();
    await Promise.resolve();
    expect(firstGot.map((s) => [s.body, s.keepalive])).toEqual([[{ quantity: 2 }, true]]);

    // The page ended before the answer: the change is still kept, sealed, and the next page sends
    // it once with the same key (the server answers a key it has seen without writing again).
    const kept = await stored();
    expect(kept).toHaveLength(1);
    const second = await openPage();
    const secondGot = server();
    const sentEarlier: number[] = [];
    second.outbox.onSentEarlier((count) => sentEarlier.push(count));
    second.outbox.startOutbox(new QueryClient(), USER);
    await vi.waitFor(() => expect(secondGot).toHaveLength(1), { timeout: 3000 });
    expect(secondGot[0]!.key).toBe(firstGot[0]!.key);
    await vi.waitFor(async () => expect(await stored()).toEqual([]));
    expect(sentEarlier).toEqual([1]);
  });

  it('sends taps left open by a closed page once their pause and grace have passed', async () => {
    const first = await openPage();
    server();
    first.outbox.addToTally(USER, 'row', -1, taps, 200, () => undefined);
    await settled();
    // The page dies without a pagehide (the process was killed): the change stays open in IndexedDB.
    const second = await openPage();
    const got = server();
    second.outbox.startOutbox(new QueryClient(), USER);
    await settled();
    expect(got).toEqual([]);
    await vi.waitFor(() => expect(got.map((s) => [s.path, s.body])).toEqual([['/api/units/u1/inventory/i1/consume', { quantity: 1 }]]), { timeout: 3000 });
  });

  it('seals taps adding up before a later write, so the server gets them in the order made', async () => {
    const { outbox } = await openPage();
    const got = server();
    outbox.addToTally(USER, 'row', 1, taps, 10_000, () => undefined);
    await outbox.sendChange(USER, 'restock-key', restock);
    expect(got.map((s) => s.body)).toEqual([{ quantity: 1 }, { quantity: 3 }]);
  });

  it('keeps a write when the network fails and lists it as waiting; a refusal of it is the screen’s, and nothing stays', async () => {
    const { outbox } = await openPage();
    server(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await outbox.sendChange(USER, 'kept', restock)).toEqual({ kept: true });
    expect(outbox.outboxSnapshot().waiting.map((c) => c.id)).toEqual(['kept']);
    expect((await stored()).map((c) => c.id)).toEqual(['kept']);

    const next = await openPage();
    server((sent) => (sent.key === 'kept' ? Response.json({ ok: true }) : Response.json({ error: { code: 'CONFLICT', message: 'Not enough stock available in garage' } }, { status: 409 })));
    const refused = await next.outbox.sendChange(USER, 'refused', restock);
    expect('error' in refused && (refused.error as Error).message).toBe('Not enough stock available in garage');
    expect(await stored()).toEqual([]);
  });

  it('puts a change refused after its page is gone in "Not sent", with the server’s reason', async () => {
    const first = await openPage();
    server(() => Promise.reject(new TypeError('Failed to fetch')));
    await first.outbox.sendChange(USER, 'later', restock);
    const second = await openPage();
    server(() => Response.json({ error: { code: 'CONFLICT', message: 'Not enough stock available in garage' } }, { status: 409 }));
    second.outbox.startOutbox(new QueryClient(), USER);
    await vi.waitFor(() => expect(second.outbox.outboxSnapshot().notSent.map((c) => c.refusal?.message)).toEqual(['Not enough stock available in garage']));
  });

  it('does not send by itself a change sent over a day ago without an answer', async () => {
    const { set, createStore } = await import('idb-keyval');
    const old: PendingChange = { ...restock, id: 'old', userId: USER, seq: 1, madeAt: '2026-01-01T00:00:00.000Z', sentAt: new Date(Date.now() - 25 * 3_600_000).toISOString() };
    await set(old.id, old, createStore('stock-keeper-outbox', 'changes'));
    const { outbox } = await openPage();
    const got = server();
    outbox.startOutbox(new QueryClient(), USER);
    await vi.waitFor(() => expect(outbox.outboxSnapshot().notSent).toHaveLength(1));
    expect(got).toEqual([]);
    expect(outbox.outboxSnapshot().notSent[0]!.refusal!.message).toMatch(/may already be saved/);
    // The person chose to send it: it goes as new.
    await outbox.retryChange('old');
    expect(got.map((s) => s.key)).toEqual(['old']);
  });
});
