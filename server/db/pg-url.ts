/**
 * PostgreSQL connection URLs and short-lived clients, for the tools around the server (the test
 * harness, the benchmark, backup and restore): the server itself connects through its pool
 * (client.ts).
 */
import pg from 'pg';

/** Returns `url` with its database name replaced by `database`. */
export function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** Runs `fn` with a client connected to `url`, closed after whatever `fn` does. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
