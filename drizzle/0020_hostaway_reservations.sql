CREATE TABLE "provider_webhook_events" (
	"tenant_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_webhook_events_tenant_id_event_key_pk" PRIMARY KEY("tenant_id","event_key")
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"tenant_id" uuid NOT NULL,
	"id" bigint NOT NULL,
	"unit_id" uuid NOT NULL,
	"arrival_date" date NOT NULL,
	"departure_date" date NOT NULL,
	"nights" integer,
	"guests" integer,
	"adults" integer,
	"children" integer,
	"status" text NOT NULL,
	"channel" text,
	"updated_on" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reservations_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "webhook_password_hash" text;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "last_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_credentials" ADD COLUMN "last_sync_error" text;--> statement-breakpoint
ALTER TABLE "provider_webhook_events" ADD CONSTRAINT "provider_webhook_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_tenant_id_unit_id_units_tenant_id_id_fk" FOREIGN KEY ("tenant_id","unit_id") REFERENCES "public"."units"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservations_unit_arrival_idx" ON "reservations" USING btree ("tenant_id","unit_id","arrival_date");