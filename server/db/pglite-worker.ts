/**
 * The worker-thread side of the embedded database (docs/decisions/022-pglite-worker-thread.md):
 * opens PGlite on `workerData.dataDir`, posts `{ ready: true }` (or the error that stopped it,
 * then ends), and answers each `Request` from the server's thread with one `Reply` of the same id.
 * Only pglite-thread.ts starts it and talks to it.
 *
 * Order is PGlite's own: every request is handed to PGlite as it arrives, and PGlite's transaction
 * lock is first in, first out, so a query or a transaction that arrives while a transaction is
 * open waits for it, in arrival order; the open transaction's own statements go straight in.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { messages, PGlite, type Results, type Transaction } from '@electric-sql/pglite';

/** Options of one statement that can cross the thread boundary (functions cannot). */
export interface WireQueryOptions {
  rowMode?: 'array' | 'object';
  paramTypes?: number[];
  /**
   * Type OIDs whose values come back as PostgreSQL's text: the caller has its own parser for
   * them and applies it on its side.
   */
  textOids: number[];
}

/** What the server's thread asks. `txId` names a transaction opened by `begin`. */
export type Request =
  | { id: number; op: 'query'; txId?: number; sql: string; params: unknown[]; options: WireQueryOptions }
  | { id: number; op: 'begin'; txId: number }
  | { id: number; op: 'end'; txId: number; commit: boolean }
  | { id: number; op: 'close' };

/**
 * A failure, cloned field by field: a PostgreSQL error's own fields (SQLSTATE `code`,
 * `constraint`, `detail`…), or the name and message of any other error.
 */
export type WireError =
  | { database: true; message: string; fields: Record<string, string | number | undefined> }
  | { database: false; name: string; message: string };

/** The answer to the request `id`: its result (rows of a query, nothing otherwise) or its error. */
export type Reply = { id: number; ok: true; result?: Results } | { id: number; ok: false; error: WireError };

/** Posted once PGlite is open, or with the error that kept it from opening. */
export type Startup = { ready: true } | { ready: false; error: WireError };

/** The settings the worker opens PGlite with. */
export interface WorkerSettings {
  /** PGlite's data directory on disk. */
  dataDir: string;
}

/** Fields PGlite adds to its errors that stay on the server's side: it has the query itself. */
const CALLER_FIELDS = new Set(['query', 'params', 'queryOptions']);

function toWire(err: unknown): WireError {
  if (err instanceof messages.DatabaseError) {
    const fields: Record<string, string | number | undefined> = {};
    for (const [key, value] of Object.entries(err)) {
      if (!CALLER_FIELDS.has(key) && (value === undefined || typeof value === 'string' || typeof value === 'number')) fields[key] = value;
    }
    return { database: true, message: err.message, fields };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { database: false, name: e.name, message: e.message };
}

/** Rolls a transaction back on request without being reported as a failure. */
const ROLLBACK = Symbol('rollback');
const keepText = (text: string) => text;

interface OpenTransaction {
  tx: Transaction;
  finish(commit: boolean): void;
  /** Settles when PGlite has committed or rolled the transaction back. */
  done: Promise<unknown>;
}

async function serve(port: NonNullable<typeof parentPort>, settings: WorkerSettings): Promise<void> {
  let pg: PGlite;
  try {
    pg = await PGlite.create({ dataDir: settings.dataDir });
  } catch (err) {
    port.postMessage({ ready: false, error: toWire(err) } satisfies Startup);
    port.close();
    return;
  }
  const open = new Map<number, OpenTransaction>();
  const reply = (id: number, work: Promise<Results | undefined>) =>
    work.then(
      (result) => port.postMessage({ id, ok: true, result } satisfies Reply),
      (err: unknown) => port.postMessage({ id, ok: false, error: toWire(err) } satisfies Reply),
    );

  const begin = (id: number, txId: number) => {
    let started = false;
    let finish!: (commit: boolean) => void;
    const done = pg.transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
          open.set(txId, { tx, finish, done });
          started = true;
          port.postMessage({ id, ok: true } satisfies Reply);
        }),
    );
    // BEGIN itself failed: the transaction never opened, so `begin` gets the error.
    done.catch((err: unknown) => {
      if (!started) port.postMessage({ id, ok: false, error: toWire(err) } satisfies Reply);
    });
  };

  const end = async (txId: number, commit: boolean): Promise<undefined> => {
    const transaction = open.get(txId);
    if (!transaction) throw new Error('Transaction is closed');
    open.delete(txId);
    transaction.finish(commit);
    await transaction.done.catch((err: unknown) => {
      if (err !== ROLLBACK) throw err;
    });
    return undefined;
  };

  const query = (request: Extract<Request, { op: 'query' }>): Promise<Results> => {
    const { rowMode, paramTypes, textOids } = request.options;
    const options = { rowMode, paramTypes, parsers: Object.fromEntries(textOids.map((oid) => [oid, keepText])) };
    if (request.txId === undefined) return pg.query(request.sql, request.params, options);
    const transaction = open.get(request.txId);
    if (!transaction) return Promise.reject(new Error('Transaction is closed'));
    return transaction.tx.query(request.sql, request.params, options);
  };

  port.on('message', (request: Request) => {
    switch (request.op) {
      case 'query':
        void reply(request.id, query(request));
        break;
      case 'begin':
        begin(request.id, request.txId);
        break;
      case 'end':
        void reply(request.id, end(request.txId, request.commit));
        break;
      case 'close':
        // PGlite closes after the work queued before it; then the thread has nothing left to do.
        void reply(
          request.id,
          pg.close().then(() => undefined),
        ).then(() => port.close());
        break;
    }
  });
  port.postMessage({ ready: true } satisfies Startup);
}

if (parentPort) await serve(parentPort, workerData as WorkerSettings);
