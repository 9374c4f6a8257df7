/**
 * LISTEN on a notification channel of the database, kept open: on PostgreSQL on a dedicated
 * connection (outside the pool), reopened after a failure; on a PGlite of this thread through its
 * own `listen`. The embedded database as the server runs it, in a worker thread, has no feed.
 * Callers learn when the feed is up and when it went down, so a cache fed by it is used only
 * while every change reaches it (modules/auth/identity-cache.ts).
 *
 * PostgreSQL delivers a notification only once the transaction that sent it commits, and sends
 * the notifications a listening connection has pending before it answers its next query: so
 * `barrier()`, a query on the listening connection, resolves only after every notification of a
 * transaction committed before the call has been handled.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, type Database } from './client';

export interface ListenHandlers {
  /** A notification's payload. */
  notify(payload: string): void;
  /** The LISTEN is in place: from now on every committed notification arrives. */
  up(): void;
  /** The listening connection failed: notifications may be lost until the next `up`. */
  down(): void;
}

export interface Listener {
  /** Resolves once every notification committed before the call has been handled (at once while down). */
  barrier(): Promise<void>;
  /** Stops listening for good. */
  close(): Promise<void>;
}

/** Pause before reopening a failed listening connection, in ms, doubling up to RETRY_MAX_MS. */
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;

/**
 * Listens on `channel` of `database` (a plain identifier: it is written into the LISTEN
 * statement) and calls `handlers`; `up` is called once the first LISTEN is in place.
 */
export function listen(database: Database, channel: string, handlers: ListenHandlers): Listener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a plain channel name: ${channel}`);
  return database.kind === 'postgres' ? listenPostgres(database.pool!, channel, handlers) : listenPglite(database, channel, handlers);
}

function listenPostgres(pool: pg.Pool, channel: string, handlers: ListenHandlers): Listener {
  let client: pg.Client | undefined;
  let closed = false;
  let delay = RETRY_MIN_MS;
  let retry: NodeJS.Timeout | undefined;

  const fail = (failed: pg.Client) => {
    if (client !== failed) return;
    client = undefined;
    failed.removeAllListeners('notification');
    void failed.end().catch(() => {});
    handlers.down();
    if (!closed) retry = setTimeout(open, delay);
    delay = Math.min(delay * 2, RETRY_MAX_MS);
  };

  async function open() {
    retry = undefined;
    // The pool's own settings (connection string, statement timeout, keep-alive) serve this
    // connection too; its connect is bounded as one of the pool's is (the pool's own
    // connectionTimeoutMillis is its wait for a free connection, POOL_WAIT_MS).
    const next = new pg.Client({ ...pool.options, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client = next;
    next.on('error', () => fail(next));
    next.on('end', () => fail(next));
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.notify(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
      if (closed || client !== next) return;
      delay = RETRY_MIN_MS;
      handlers.up();
    } catch {
      fail(next);
    }
  }
  void open();

  return {
    async barrier() {
      const current = client;
      if (!current) return;
      // A failure here is the connection's: its 'error' handler reports it as down.
      await current.query('select 1').catch(() => {});
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners();
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
}

function listenPglite(database: Database, channel: string, handlers: ListenHandlers): Listener {
  const pglite = (database.db as unknown as { $client: PGlite }).$client;
  // The server's PGlite runs in a worker thread that does not pass notifications on (db/pglite-thread.ts):
  // a feed that never comes up, so its readers never rely on it.
  if (typeof pglite.listen !== 'function') return { barrier: async () => {}, close: async () => {} };
  const unlisten = pglite.listen(channel, (payload) => handlers.notify(payload)).then((stop) => {
    handlers.up();
    return stop;
  });
  return {
    async barrier() {
      await unlisten;
      await pglite.query('select 1');
    },
    async close() {
      await (await unlisten)();
    },
  };
}
