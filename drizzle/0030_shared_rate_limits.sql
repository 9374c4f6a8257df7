-- Rate limits shared by every server on this database (server/lib/limits.ts): one row per limited
-- key, in the layout rate-limiter-flexible's Postgres store reads and writes (the key, the points
-- spent in the current window, the window's end in epoch milliseconds). The store is told the
-- table exists and never creates it. Its primary key is the only index it uses; expired rows are
-- deleted by the store itself (every 5 minutes, the rows expired an hour ago).
--
-- Global, not per tenant: a key names what it counts (a client address, a company's id, an
-- email), so the table has no tenant_id and no row-level security. Only the server's own login
-- uses it, outside tenant transactions; the application role gets no rights (privileges.test.ts).
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
REVOKE ALL ON TABLE "rate_limits" FROM inventory_app;
