// @ts-check
/**
 * The worker-thread side of the embedded database (docs/decisions/022-pglite-worker-thread.md):
 * opens PGlite on `workerData.dataDir`, posts a `Startup` (ready, or the error that stopped it,
 * then ends), and answers each `Request` from the server's thread with one `Reply` of the same
 * id. Only pglite-thread.ts starts it and talks to it; the messages are typed there.
 *
 * JavaScript, so the thread needs no TypeScript loader: tsx in a worker thread costs 30–60 MB
 * more (decision 022). Type-checked from its JSDoc all the same.
 *
 * Order is PGlite's own: every request is handed to PGlite as it arrives, and PGlite's transaction
 * lock is first in, first out, so a query or a transaction that arrives while a transaction is
 * open waits for it, in arrival order; the open transaction's own statements go straight in.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { messages, PGlite } from '@electric-sql/pglite';

/**
 * @typedef {import('./pglite-thread.ts').Request} Request
 * @typedef {import('./pglite-thread.ts').Reply} Reply
 * @typedef {import('./pglite-thread.ts').Startup} Startup
 * @typedef {import('./pglite-thread.ts').WireError} WireError
 * @typedef {import('./pglite-thread.ts').WorkerSettings} WorkerSettings
 * @typedef {import('@electric-sql/pglite').Results} Results
 * @typedef {import('@electric-sql/pglite').Transaction} Transaction
 */

/**
 * PostgreSQL's buffer cache inside PGlite's WebAssembly memory, which never shrinks. initdb's
 * 128MB is all touched at start (RSS); the demo company's database is 17 MB, and pages beyond
 * the cache are read from the operating system's file cache (decision 022).
 */
const SHARED_BUFFERS = '32MB';

/** Fields PGlite adds to its errors that stay on the server's side: it has the query itself. */
const CALLER_FIELDS = new Set(['query', 'params', 'queryOptions']);

/**
 * A failure as it can cross threads: a PostgreSQL error's own fields, else name and message.
 * @param {unknown} err
 * @returns {WireError}
 */
function toWire(err) {
  if (err instanceof messages.DatabaseError) {
    /** @type {Record<string, string | number | undefined>} */
    const fields = {};
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
/** @param {string} text */
const keepText = (text) => text;

/**
 * @param {import('node:worker_threads').MessagePort} port
 * @param {WorkerSettings} settings
 */
async function serve(port, settings) {
  /** @type {PGlite} */
  let pg;
  try {
    pg = await PGlite.create({
      dataDir: settings.dataDir,
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    });
  } catch (err) {
    port.postMessage(/** @satisfies {Startup} */ ({ ready: false, error: toWire(err) }));
    port.close();
    return;
  }
  /** @type {Map<number, { tx: Transaction, finish: (commit: boolean) => void, done: Promise<unknown> }>} */
  const open = new Map();

  /**
   * @param {number} id
   * @param {Promise<Results | undefined>} work
   */
  const reply = (id, work) =>
    work.then(
      (result) => port.postMessage(/** @satisfies {Reply} */ ({ id, ok: true, result })),
      (/** @type {unknown} */ err) => port.postMessage(/** @satisfies {Reply} */ ({ id, ok: false, error: toWire(err) })),
    );

  /**
   * Opens transaction `txId`: PGlite holds it, and its lock, until `end`.
   * @param {number} id
   * @param {number} txId
   */
  const begin = (id, txId) => {
    let started = false;
    const done = pg.transaction(
      (tx) =>
        new Promise((resolve, reject) => {
          /** @param {boolean} commit */
          const finish = (commit) => (commit ? resolve(undefined) : reject(ROLLBACK));
          open.set(txId, { tx, finish, done });
          started = true;
          port.postMessage(/** @satisfies {Reply} */ ({ id, ok: true }));
        }),
    );
    // BEGIN itself failed: the transaction never opened, so `begin` gets the error.
    done.catch((/** @type {unknown} */ err) => {
      if (!started) port.postMessage(/** @satisfies {Reply} */ ({ id, ok: false, error: toWire(err) }));
    });
  };

  /**
   * Commits or rolls back transaction `txId`; settles when PGlite has.
   * @param {number} txId
   * @param {boolean} commit
   * @returns {Promise<undefined>}
   */
  const end = async (txId, commit) => {
    const transaction = open.get(txId);
    if (!transaction) throw new Error('Transaction is closed');
    open.delete(txId);
    transaction.finish(commit);
    await transaction.done.catch((/** @type {unknown} */ err) => {
      if (err !== ROLLBACK) throw err;
    });
    return undefined;
  };

  /**
   * @param {Extract<Request, { op: 'query' }>} request
   * @returns {Promise<Results>}
   */
  const query = (request) => {
    const { rowMode, paramTypes, textOids } = request.options;
    const options = { rowMode, paramTypes, parsers: Object.fromEntries(textOids.map((oid) => [oid, keepText])) };
    if (request.txId === undefined) return pg.query(request.sql, request.params, options);
    const transaction = open.get(request.txId);
    if (!transaction) return Promise.reject(new Error('Transaction is closed'));
    return transaction.tx.query(request.sql, request.params, options);
  };

  port.on('message', (/** @type {Request} */ request) => {
    switch (request.op) {
      case 'query':
        void reply(request.id, query(request));
        break;
      case 'exec':
        // Several statements in one text (simple protocol, no parameters): the last one's result.
        void reply(
          request.id,
          pg.exec(request.sql).then((results) => results.at(-1) ?? { rows: [], fields: [] }),
        );
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
  port.postMessage(/** @satisfies {Startup} */ ({ ready: true }));
}

if (parentPort) void serve(parentPort, workerData);
