CREATE TABLE "calendar_links" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"unit_id" uuid NOT NULL,
	"url" text NOT NULL,
	"synced_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_links_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "calendar_link_id" uuid;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "guest_key" text;--> statement-breakpoint
ALTER TABLE "calendar_links" ADD CONSTRAINT "calendar_links_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_links" ADD CONSTRAINT "calendar_links_tenant_id_unit_id_units_tenant_id_id_fk" FOREIGN KEY ("tenant_id","unit_id") REFERENCES "public"."units"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_links_unit_url_uq" ON "calendar_links" USING btree ("tenant_id","unit_id","url");--> statement-breakpoint
-- Calendar links are tenant data (decision 013): row-level security enabled and forced, the
-- tenant policy, and the rights tenant code needs.
ALTER TABLE "calendar_links" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "calendar_links" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "calendar_links" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "calendar_links" TO inventory_app;--> statement-breakpoint
-- A property's one link becomes its first link, with the state of its last read.
INSERT INTO "calendar_links" ("tenant_id", "unit_id", "url", "synced_at", "error")
SELECT "tenant_id", "id", "calendar_url", "calendar_synced_at", "calendar_error" FROM "units" WHERE "calendar_url" IS NOT NULL;--> statement-breakpoint
-- A link's stays were known as '{unit}/{uid}'; they become '{link}/{uid}', each link's own.
UPDATE "reservations" r SET "calendar_link_id" = l."id", "id" = l."id"::text || substr(r."id", length(r."unit_id"::text) + 1)
FROM "calendar_links" l
WHERE r."source" = 'calendar' AND l."tenant_id" = r."tenant_id" AND l."unit_id" = r."unit_id" AND left(r."id", length(r."unit_id"::text) + 1) = r."unit_id"::text || '/';
