-- What the application role inventory_app may touch (docs/decisions/013-rls-everywhere.md).
-- Migration 0001 granted it every table, better-auth's account tables included: a tenant
-- transaction could read password hashes and session tokens and change any company's session.
--
-- Account tables and webhook bookkeeping: no rights at all. better-auth and the webhook handler
-- use them as the login, never inside a tenant transaction.
REVOKE ALL ON TABLE "users", "sessions", "accounts", "verifications", "processed_webhook_events" FROM inventory_app;
--> statement-breakpoint
-- Plans are global reference rows: tenant transactions read them (limits, access rule) only.
REVOKE ALL ON TABLE "subscription_tiers" FROM inventory_app;
--> statement-breakpoint
GRANT SELECT ON TABLE "subscription_tiers" TO inventory_app;
--> statement-breakpoint
-- New tables no longer reach the role by default: the migration that creates a table grants
-- what tenant code needs (and adds its policy), and privileges.test.ts fails on a table that has
-- no declared decision.
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM inventory_app;
--> statement-breakpoint
-- Identity tables: forced like the domain tables, so the owner login is filtered too. The login
-- that migrates (the server's own: main.ts migrates at boot) reads and writes them before a
-- tenant is known (better-auth, the membership lookup of every request, onboarding's company
-- check, the operator's tenant search): its own policy lets it through. The application role is
-- not a member of the login, so only tenant_isolation applies to it.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['tenants', 'memberships', 'invitations']
  LOOP
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY server_login ON %I TO %I USING (true) WITH CHECK (true)', t, current_user);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The members of the current tenant with the email and role the Users screen shows, and nothing
-- else of better-auth's users. It reads users and memberships with its owner's rights (the
-- application role has none on users); the barrier keeps a caller's own conditions from being
-- evaluated on other tenants' rows before the tenant filter.
CREATE VIEW "member_directory" WITH (security_barrier = true) AS
SELECT m."user_id", u."email", m."role"
FROM "memberships" m JOIN "users" u ON u."id" = m."user_id"
WHERE m."tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid;
--> statement-breakpoint
GRANT SELECT ON TABLE "member_directory" TO inventory_app;
