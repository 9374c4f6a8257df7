/**
 * The full drizzle schema, one object, as drizzle's query builder and better-auth's adapter
 * take it. Each aggregate lives in its own file under schema/.
 */
import * as apiKeys from './schema/api-keys';
import * as auth from './schema/auth';
import * as billing from './schema/billing';
import * as integrations from './schema/integrations';
import * as requests from './schema/requests';
import * as scans from './schema/scans';
import * as stock from './schema/stock';
import * as webhooks from './schema/webhooks';

export const schema = { ...auth, ...stock, ...billing, ...integrations, ...scans, ...requests, ...apiKeys, ...webhooks };
export type Schema = typeof schema;
