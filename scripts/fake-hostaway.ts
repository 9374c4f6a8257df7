/**
 * `npm run fake:hostaway`: a fake Hostaway API to try the import against (docs/product.md "Import
 * from Hostaway"). Start the server with HOSTAWAY_API_BASE set to the URL printed here, connect
 * with the Client ID and Client Secret printed, and import. It holds 30 listings with stays around
 * today (HOSTAWAY_PAGE_SIZE=10 on the server reads them in three pages).
 * `curl -X POST <url>/_fake/reservations/<id> -d '{"status":"cancelled"}'` changes a reservation
 * and sends the webhook registered for the account.
 * Environment: FAKE_HOSTAWAY_PORT (default 4010), FAKE_HOSTAWAY_LISTINGS (default 30).
 */
import { makeListings, makeReservations, startFakeHostaway } from '../server/test/fake-hostaway';

const port = Number(process.env.FAKE_HOSTAWAY_PORT ?? 4010);
const listings = makeListings(Number(process.env.FAKE_HOSTAWAY_LISTINGS ?? 30));
const account = { clientId: '12345', clientSecret: 'demo-secret', listings, reservations: makeReservations(listings, new Date()) };
const fake = await startFakeHostaway({ accounts: [account], port });
console.log(`Fake Hostaway on ${fake.url}
  HOSTAWAY_API_BASE=${fake.url}
  Client ID: ${account.clientId}   Client Secret: ${account.clientSecret}
  ${listings.length} listings, ${account.reservations.length} reservations (first id ${account.reservations[0]?.id})`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
