/**
 * The embedded database on a thread of its own (docs/decisions/022-pglite-worker-thread.md):
 * PGlite executes every statement synchronously in WebAssembly, so on the server's thread it
 * stopped HTTP, static files and /api/health for as long as any query ran. `PgliteThread` starts
 * PGlite in a worker thread (pglite-worker.ts) and offers the part of PGlite's client API that
 * drizzle-orm/pglite uses — `query` and interactive `transaction` — by messages to it.
 *
 * Order and isolation are PGlite's own: one transaction at a time, and a query or transaction
 * asked for while one is open waits behind it, first in, first out. Results and errors are those
 * of PGlite in-process: rows parsed by PGlite's parsers (the caller's own parsers, which cannot
 * cross threads, run here on the text PostgreSQL sent), and a PostgreSQL error is a
 * `DatabaseError` with its SQLSTATE `code`, `constraint`, `detail`… and the statement's `query`
 * and `params`, as sql-state.ts and lib/db-errors.ts read them.
 *
 * When the worker ends without being closed (a WebAssembly abort, out of memory), every request
 * under way fails with SQLSTATE 08006 (connection failure), which lib/db-errors.ts answers with
 * 503 UNAVAILABLE, and the next request starts a new worker on the same data directory, where
 * PostgreSQL recovers from its write-ahead log as after any crash (decision 010: recovery needs
 * nothing).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results } from '@electric-sql/pglite';
import { pgliteWorkerModule } from '../paths';

/** SQLSTATE of a request that the stopped or closed worker cannot answer: connection_failure. */
export const WORKER_STOPPED_SQLSTATE = '08006';

/** The query options the thread accepts: those drizzle-orm/pglite passes. */
export type ThreadQueryOptions = Pick<QueryOptions, 'rowMode' | 'paramTypes' | 'parsers'>;

/** An open transaction: its statements run inside it, in the order they are asked for. */
export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<Results<T>>;
}

/** The settings the worker opens PGlite with (its `workerData`). */
export interface WorkerSettings {
  /** PGlite's data directory on disk. */
  dataDir: string;
}

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

/** What this thread asks the worker. `txId` names a transaction opened by `begin`. */
export type Request =
  | { id: number; op: 'query'; txId?: number; sql: string; params: unknown[]; options: WireQueryOptions }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin'; txId: number }
  | { id: number; op: 'end'; txId: number; commit: boolean }
  | { id: number; op: 'close' };

/**
 * A failure, copied field by field: a PostgreSQL error's own fields (SQLSTATE `code`,
 * `constraint`, `detail`…), or the name and message of any other error.
 */
export type WireError =
  | { database: true; message: string; fields: Record<string, string | number | undefined> }
  | { database: false; name: string; message: string };

/** The worker's answer to the request `id`: a query's result, nothing otherwise, or the error. */
export type Reply = { id: number; ok: true; result?: Results } | { id: number; ok: false; error: WireError };

/** Posted by the worker once PGlite is open, or with the error that kept it from opening. */
export type Startup = { ready: true } | { ready: false; error: WireError };


/** The error of a request the worker cannot answer; `cause` says why when known. */
function stoppedError(message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code: WORKER_STOPPED_SQLSTATE });
}

interface Pending {
  resolve(result: Results | undefined): void;
  reject(err: Error): void;
  /** The statement, for a PostgreSQL error's `query`, `params` and `queryOptions`. */
  query?: { sql: string; params: unknown[]; options: ThreadQueryOptions | undefined };
}

/** One started worker and the requests it has not answered yet, which fail if it stops. */
interface Running {
  worker: Worker;
  pending: Map<number, Pending>;
}

function fromWire(wire: WireError, query: Pending['query']): Error {
  if (!wire.database) return Object.assign(new Error(wire.message), { name: wire.name });
  // The fields include the message's `length` and `name`; the statement's are attached as
  // PGlite itself does (makePGliteError).
  return Object.assign(new messages.DatabaseError(wire.message, 0, 'error'), wire.fields, {
    query: query?.sql,
    params: query?.params,
    queryOptions: query?.options,
  });
}

/** Runs the caller's parsers on the columns the worker left as text. */
function parseColumns(result: Results, options: ThreadQueryOptions | undefined): Results {
  const parsers = options?.parsers;
  if (!parsers) return result;
  const columns = result.fields.flatMap((field, index) => {
    const parse = parsers[field.dataTypeID];
    return parse ? [{ key: options.rowMode === 'array' ? index : field.name, parse }] : [];
  });
  if (columns.length === 0) return result;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const { key, parse } of columns) {
      const text = row[key];
      if (text !== null) row[key] = parse(text as string);
    }
  }
  return result;
}

/** PGlite in a worker thread, with the client API drizzle-orm/pglite needs. */
export class PgliteThread {
  readonly #settings: WorkerSettings;
  #running: Running | undefined;
  #starting: Promise<Running> | undefined;
  #nextId = 1;
  #nextTx = 1;
  #closed = false;

  private constructor(settings: WorkerSettings) {
    this.#settings = settings;
  }

  /**
   * Opens PGlite on `dataDir` (created and initialised when empty) in a new worker thread.
   * @throws the error that kept PGlite from opening (e.g. an unreadable data directory).
   */
  static async open(dataDir: string): Promise<PgliteThread> {
    const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
    const thread = new PgliteThread({ dataDir });
    await thread.#start();
    if (!fresh) return thread;
    // Creating the database runs initdb in a second PGlite, whose few hundred MB the worker's
    // garbage collector keeps long after (decision 022): a new worker on it starts clean.
    await thread.close();
    return PgliteThread.open(dataDir);
  }

  /** Runs one statement (extended protocol, `$1`… parameters); as PGlite's `query`. */
  async query<T>(sql: string, params: unknown[] = [], options?: ThreadQueryOptions): Promise<Results<T>> {
    return this.#query<T>(await this.#worker(), undefined, sql, params, options);
  }

  /**
   * Runs a text of one or more statements without parameters (simple protocol), as PGlite's
   * `exec`, and resolves with the last statement's result (the job queue creates its schema so).
   */
  async exec(sql: string): Promise<Results> {
    return (await this.#send(await this.#worker(), { op: 'exec', sql }))!;
  }

  /**
   * Runs `callback` in a transaction: committed when it resolves, rolled back when it throws
   * (then its error is rethrown). Other work waits until it ends, as with PGlite.
   * @throws the callback's error, the COMMIT's (25P02 when PostgreSQL rolled back instead), or
   *   08006 when the worker stopped.
   */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const txId = this.#nextTx++;
    const running = await this.#worker();
    await this.#send(running, { op: 'begin', txId });
    let closed = false;
    const tx: ThreadTransaction = {
      // On the transaction's own worker: #send fails it if that worker has stopped since.
      query: <R>(sql: string, params: unknown[] = [], options?: ThreadQueryOptions) =>
        closed ? Promise.reject(new Error('Transaction is closed')) : this.#query<R>(running, txId, sql, params, options),
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (err) {
      closed = true;
      await this.#send(running, { op: 'end', txId, commit: false });
      throw err;
    }
    closed = true;
    await this.#send(running, { op: 'end', txId, commit: true });
    return result;
  }

  /**
   * Closes PGlite after the work already sent to the worker, then ends the worker; later calls
   * fail with 08006. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const running = await this.#starting?.catch(() => undefined);
    if (!running || this.#running !== running) return;
    await this.#send(running, { op: 'close' });
    await running.worker.terminate();
  }

  async #query<T>(
    running: Running,
    txId: number | undefined,
    sql: string,
    params: unknown[],
    options: ThreadQueryOptions | undefined,
  ): Promise<Results<T>> {
    const wire: WireQueryOptions = {
      rowMode: options?.rowMode,
      paramTypes: options?.paramTypes,
      textOids: options?.parsers ? Object.keys(options.parsers).map(Number) : [],
    };
    const result = await this.#send(running, { op: 'query', txId, sql, params, options: wire }, { sql, params, options });
    return parseColumns(result!, options) as Results<T>;
  }

  /** The running worker, starting one when there is none (first use, or after it stopped). */
  #worker(): Promise<Running> {
    if (this.#closed) return Promise.reject(stoppedError('The embedded database is closed.'));
    if (this.#running) return Promise.resolve(this.#running);
    return this.#start().catch((err: unknown) => {
      throw stoppedError('The embedded database could not be restarted.', err);
    });
  }

  #start(): Promise<Running> {
    this.#starting ??= new Promise<Running>((resolve, reject) => {
      const worker = new Worker(pgliteWorkerModule, { workerData: this.#settings });
      const running: Running = { worker, pending: new Map() };
      let ready = false;
      let failure: unknown;
      worker.once('message', (startup: Startup) => {
        if (!startup.ready) {
          failure = fromWire(startup.error, undefined);
          return;
        }
        ready = true;
        this.#running = running;
        worker.on('message', (reply: Reply) => this.#settle(running, reply));
        this.#idle(running);
        resolve(running);
      });
      worker.on('error', (err) => {
        failure = err;
      });
      worker.once('exit', (code) => {
        if (this.#running === running) this.#running = undefined;
        if (!ready) {
          this.#starting = undefined;
          reject(failure ?? stoppedError(`The embedded database ended while opening (exit code ${code}).`));
          return;
        }
        this.#starting = undefined;
        const err = stoppedError(`The embedded database stopped (exit code ${code}).`, failure);
        for (const pending of running.pending.values()) pending.reject(err);
        running.pending.clear();
      });
    });
    return this.#starting;
  }

  #send(running: Running, request: DistributiveOmit<Request, 'id'>, query?: Pending['query']): Promise<Results | undefined> {
    if (this.#running !== running) return Promise.reject(stoppedError('The embedded database stopped.'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      // Throws (DataCloneError) for a parameter that cannot be copied to the worker, e.g. a function.
      running.worker.postMessage({ ...request, id } as Request);
      running.pending.set(id, { resolve, reject, query });
      running.worker.ref();
    });
  }

  #settle(running: Running, reply: Reply): void {
    const pending = running.pending.get(reply.id);
    if (!pending) return;
    running.pending.delete(reply.id);
    this.#idle(running);
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(fromWire(reply.error, pending.query));
  }

  /** An idle worker does not keep the process alive, as PGlite in-process does not. */
  #idle(running: Running): void {
    if (running.pending.size === 0) running.worker.unref();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
