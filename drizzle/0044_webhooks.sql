CREATE TABLE "webhook_deliveries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"last_status_code" integer,
	"last_duration_ms" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "webhook_deliveries_status_known" CHECK ("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"secret_enc" text NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "webhook_endpoints_status_known" CHECK ("webhook_endpoints"."status" in ('enabled', 'disabled')),
	CONSTRAINT "webhook_endpoints_url_length" CHECK (char_length("webhook_endpoints"."url") between 1 and 2000),
	CONSTRAINT "webhook_endpoints_description_length" CHECK (char_length("webhook_endpoints"."description") <= 200),
	CONSTRAINT "webhook_endpoints_events_some" CHECK (cardinality("webhook_endpoints"."events") >= 1)
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "webhook_events_id_prefix" CHECK ("webhook_events"."id" like 'msg\_%')
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_event_id_webhook_events_tenant_id_id_fk" FOREIGN KEY ("tenant_id","event_id") REFERENCES "public"."webhook_events"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_endpoint_id_webhook_endpoints_tenant_id_id_fk" FOREIGN KEY ("tenant_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint_uq" ON "webhook_deliveries" USING btree ("tenant_id","event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" USING btree ("tenant_id","endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
-- Webhooks are tenant data (decision 013): row-level security enabled and forced, the tenant
-- policy, and the rights tenant code needs. The delivery worker reads and updates the due
-- deliveries of every company, with their endpoints and events, as the server's login
-- (docs/decisions/050-webhooks.md): its own policy lets it through, as for api_keys (migration 0043).
ALTER TABLE "webhook_endpoints" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "webhook_endpoints" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);--> statement-breakpoint
ALTER TABLE "webhook_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "webhook_events" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "webhook_deliveries" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('CREATE POLICY server_login ON "webhook_endpoints" TO %I USING (true) WITH CHECK (true)', current_user);
  EXECUTE format('CREATE POLICY server_login ON "webhook_events" TO %I USING (true) WITH CHECK (true)', current_user);
  EXECUTE format('CREATE POLICY server_login ON "webhook_deliveries" TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "webhook_endpoints" TO inventory_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "webhook_events" TO inventory_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "webhook_deliveries" TO inventory_app;--> statement-breakpoint
-- An event of a company (docs/decisions/050-webhooks.md), recorded in the transaction of the
-- change that caused it: the event, and one pending delivery, due at once, per enabled endpoint
-- of the company subscribed to its type. When no endpoint wants it nothing is written: the
-- stock writers that call it from their triggers pay one lookup of the primary key's tenant_id
-- prefix. It runs with the caller's rights (not SECURITY DEFINER), so under a tenant transaction
-- row-level security holds it to the transaction's company: another company's p_tenant finds no
-- endpoint and writes nothing. The id is the `webhook-id` of every delivery of the event.
CREATE FUNCTION "record_webhook_event"(p_tenant uuid, p_type text, p_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_id text;
  v_endpoint uuid;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.tenant_id = p_tenant AND e.status = 'enabled' AND p_type = ANY (e.events)) THEN
    RETURN;
  END IF;
  v_id := 'msg_' || replace(gen_random_uuid()::text, '-', '');
  INSERT INTO webhook_events (tenant_id, id, type, data) VALUES (p_tenant, v_id, p_type, p_data);
  -- One INSERT ... VALUES per endpoint (a company has at most 10), each with its id made here: on
  -- Citus an INSERT ... SELECT with a volatile default (the delivery's id) is not pushed down to
  -- the company's shard but goes through the coordinator by COPY, which row-level security
  -- refuses (decision 042, rule 7).
  FOR v_endpoint IN
    SELECT e.id FROM webhook_endpoints e WHERE e.tenant_id = p_tenant AND e.status = 'enabled' AND p_type = ANY (e.events)
  LOOP
    INSERT INTO webhook_deliveries (tenant_id, id, event_id, endpoint_id, next_attempt_at) VALUES (p_tenant, gen_random_uuid(), v_id, v_endpoint, now());
  END LOOP;
END
$$;
