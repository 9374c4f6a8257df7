-- The AI photo scanner (decision 035): scans keep the photo and the detections, and the ledger
-- rows an applied scan wrote point to it (inventory_logs.scan_id, filled from app.scan_id).
CREATE TABLE "scans" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"unit_id" uuid,
	"garage_id" uuid,
	"user_id" uuid,
	"photo" "bytea" NOT NULL,
	"detections" jsonb NOT NULL,
	"model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"applied_by" uuid,
	"applied_mode" text,
	CONSTRAINT "scans_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "scans_location" CHECK (("scans"."unit_id" is null) <> ("scans"."garage_id" is null)),
	CONSTRAINT "scans_applied" CHECK (("scans"."applied_at" is null) = ("scans"."applied_mode" is null))
);
--> statement-breakpoint
ALTER TABLE "inventory_logs" ADD COLUMN "scan_id" uuid DEFAULT nullif(current_setting('app.scan_id', true), '')::uuid;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scans_tenant_created_idx" ON "scans" USING btree ("tenant_id","created_at");--> statement-breakpoint
-- A tenant table like every other (docs/decisions/013-rls-everywhere.md): RLS enabled and forced,
-- the one policy on app.tenant_id, the application role's rights.
ALTER TABLE "scans" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "scans" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "scans" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "scans" TO inventory_app;
