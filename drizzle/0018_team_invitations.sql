-- Invitations by email (modules/team, docs/decisions/029-team-and-invitations.md). The link
-- carries a secret whose SHA-256 is stored here; a resend replaces it. Nullable only because
-- better-auth refuses a required column it never writes; every invitation written has one.
ALTER TABLE "invitations" ADD COLUMN "token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_hash_idx" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
-- One pending invitation per address in a company: a second invite of the same address is refused.
CREATE UNIQUE INDEX "invitations_pending_email_idx" ON "invitations" ("tenant_id", lower("email")) WHERE "status" = 'pending';--> statement-breakpoint
-- The Users screen also shows each member's name and when they were last active (their newest
-- session's last renewal or creation). Columns are added at the end, as CREATE OR REPLACE VIEW
-- requires; the view keeps its security barrier and its grant.
CREATE OR REPLACE VIEW "member_directory" WITH (security_barrier = true) AS
SELECT m."user_id", u."email", m."role", u."name", m."created_at" AS "joined_at",
       (SELECT max(s."updated_at") FROM "sessions" s WHERE s."user_id" = m."user_id") AS "last_active_at"
FROM "memberships" m JOIN "users" u ON u."id" = m."user_id"
WHERE m."tenant_id" = nullif(current_setting('app.tenant_id', true), '')::uuid;
