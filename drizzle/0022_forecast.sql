CREATE TABLE "daily_email_sends" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_email_sends_tenant_id_user_id_day_pk" PRIMARY KEY("tenant_id","user_id","day")
);
--> statement-breakpoint
CREATE TABLE "item_usage_rates" (
	"tenant_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"per_stay" numeric(14, 4) NOT NULL,
	"per_guest_night" numeric(14, 4) NOT NULL,
	"fixed_share" numeric(5, 4) NOT NULL,
	"properties" integer NOT NULL,
	"basis" text NOT NULL,
	"learned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "item_usage_rates_tenant_id_item_id_pk" PRIMARY KEY("tenant_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "usage_rates" (
	"tenant_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"per_stay" numeric(14, 4) NOT NULL,
	"per_guest_night" numeric(14, 4) NOT NULL,
	"fixed_share" numeric(5, 4) NOT NULL,
	"stays" integer NOT NULL,
	"guest_nights" integer NOT NULL,
	"basis" text NOT NULL,
	"learned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_rates_tenant_id_unit_id_item_id_pk" PRIMARY KEY("tenant_id","unit_id","item_id"),
	CONSTRAINT "usage_rates_nonneg" CHECK ("usage_rates"."per_stay" >= 0 and "usage_rates"."per_guest_night" >= 0 and "usage_rates"."fixed_share" between 0 and 1)
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "source" text DEFAULT 'hostaway' NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" DROP CONSTRAINT "reservations_tenant_id_id_pk";--> statement-breakpoint
ALTER TABLE "reservations" ALTER COLUMN "id" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_tenant_id_source_id_pk" PRIMARY KEY("tenant_id","source","id");--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "daily_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "garages" ADD COLUMN "lead_time_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "usage_per_stay_default" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "calendar_url" text;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "calendar_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "calendar_error" text;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "typical_guests" integer;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "daily_email_sends" ADD CONSTRAINT "daily_email_sends_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_email_sends" ADD CONSTRAINT "daily_email_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_usage_rates" ADD CONSTRAINT "item_usage_rates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_usage_rates" ADD CONSTRAINT "item_usage_rates_tenant_id_item_id_items_tenant_id_id_fk" FOREIGN KEY ("tenant_id","item_id") REFERENCES "public"."items"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_rates" ADD CONSTRAINT "usage_rates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_rates" ADD CONSTRAINT "usage_rates_tenant_id_unit_id_units_tenant_id_id_fk" FOREIGN KEY ("tenant_id","unit_id") REFERENCES "public"."units"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_rates" ADD CONSTRAINT "usage_rates_tenant_id_item_id_items_tenant_id_id_fk" FOREIGN KEY ("tenant_id","item_id") REFERENCES "public"."items"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garages" ADD CONSTRAINT "garages_lead_time_days_range" CHECK ("garages"."lead_time_days" between 0 and 365);--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_usage_per_stay_default_range" CHECK ("items"."usage_per_stay_default" between 0 and 100000);--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_typical_guests_range" CHECK ("units"."typical_guests" between 1 and 100);--> statement-breakpoint
-- The learned rates and the daily emails sent are tenant data (decision 013): row-level security
-- enabled and forced, the tenant policy, and the rights tenant code needs.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['usage_rates', 'item_usage_rates', 'daily_email_sends']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format($p$CREATE POLICY tenant_isolation ON %I USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)$p$, t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE %I TO inventory_app', t);
  END LOOP;
END
$$;
