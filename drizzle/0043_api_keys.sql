CREATE TABLE "api_keys" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	CONSTRAINT "api_keys_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "api_keys_id_version" CHECK (substr("api_keys"."id"::text, 15, 1) = '8'),
	CONSTRAINT "api_keys_name_length" CHECK (char_length("api_keys"."name") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "inventory_logs" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_key_hash_idx" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_tenant_created_idx" ON "api_keys" USING btree ("tenant_id","created_at");
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_role_known" CHECK ("role" in ('read_only', 'member', 'admin'));--> statement-breakpoint
-- A company's keys are tenant data (decision 013): row-level security enabled and forced, the
-- tenant policy, and the rights tenant code needs (the app revokes keys, never deletes them). The request
-- hook reads a key by its hash before the company is known, as the server's login, like the
-- membership lookup of a session (migration 0010): its own policy lets it through, and it writes
-- a key's last use.
ALTER TABLE "api_keys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "api_keys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "api_keys" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('CREATE POLICY server_login ON "api_keys" TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "api_keys" TO inventory_app;--> statement-breakpoint
-- Changes made with an API key (docs/decisions/049-api-keys.md). The stock writers put the
-- identity's user id on every movement; for a request made with a key that id is the key's (a
-- UUID of version 8, api_keys_id_version, which no account's id is: they are version 4). This
-- trigger moves it to api_key_id and records the key's creator as user_id, so every writer, and
-- transfer_to_units, marks a key's movements without a parameter of its own. Its WHEN keeps the
-- function from being called for a person's movements; an id that only looks like a key's (not
-- one of the company's keys) is left as it is.
CREATE FUNCTION "ledger_row_api_key"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  creator uuid;
BEGIN
  SELECT k.created_by INTO creator FROM api_keys k WHERE k.tenant_id = NEW.tenant_id AND k.id = NEW.user_id;
  IF FOUND THEN
    NEW.api_key_id := NEW.user_id;
    NEW.user_id := creator;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "inventory_logs_api_key" BEFORE INSERT ON "inventory_logs" FOR EACH ROW
  WHEN (NEW.user_id IS NOT NULL AND substr(NEW.user_id::text, 15, 1) = '8')
  EXECUTE FUNCTION "ledger_row_api_key"();--> statement-breakpoint
-- The Dashboard's activity names the API key that made a change (migration 0036's function,
-- with the key's name beside the author's id).
CREATE OR REPLACE FUNCTION public.tenant_dashboard(p_tenant uuid, p_limit integer)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (
    WITH alerts AS (
      (SELECT 'unit' AS location_type, x.id, x.item_id, x.quantity, x.item_threshold, x.updated_at,
              (SELECT p.name FROM units p WHERE p.tenant_id = p_tenant AND p.id = x.unit_id) AS location_name
       FROM unit_inventory x
       WHERE x.tenant_id = p_tenant AND stock_in_alert(x.quantity, x.item_threshold)
       ORDER BY stock_is_critical(x.quantity) DESC, x.updated_at DESC, x.id DESC LIMIT p_limit)
      UNION ALL
      (SELECT 'garage', x.id, x.item_id, x.quantity, x.item_threshold, x.updated_at,
              (SELECT p.name FROM garages p WHERE p.tenant_id = p_tenant AND p.id = x.garage_id)
       FROM garage_inventory x
       WHERE x.tenant_id = p_tenant AND stock_in_alert(x.quantity, x.item_threshold)
       ORDER BY stock_is_critical(x.quantity) DESC, x.updated_at DESC, x.id DESC LIMIT p_limit)
    ), lists AS (
      SELECT a.location_type,
             json_agg(json_build_object(
               'id', a.id, 'item_name', (SELECT i.name FROM items i WHERE i.tenant_id = p_tenant AND i.id = a.item_id),
               'location_name', a.location_name, 'location_type', a.location_type,
               'alert_type', stock_status(a.quantity, a.item_threshold),
               'created_at', to_char(a.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
               ORDER BY stock_is_critical(a.quantity) DESC, a.updated_at DESC, a.id DESC) AS list
      FROM alerts a
      GROUP BY a.location_type
    ), activity AS (
      SELECT x.id, x.item_id, x.quantity_change, x.source_type, x.unit_id, x.garage_id, x.user_id, x.api_key_id, x.created_at
      FROM inventory_logs x
      WHERE x.tenant_id = p_tenant AND x.quantity_change <> 0
      ORDER BY x.created_at DESC, x.id LIMIT p_limit
    )
    SELECT json_build_object(
      'stats', (
        SELECT json_build_object(
                 'total_units', (SELECT count(*)::int FROM units u WHERE u.tenant_id = p_tenant),
                 'total_items', (SELECT count(*)::int FROM items i WHERE i.tenant_id = p_tenant),
                 'low_stock_items', coalesce(sum(k.low), 0)::int,
                 'critical_items', coalesce(sum(k.critical), 0)::int)
        FROM unit_alert_counts k WHERE k.tenant_id = p_tenant),
      'unit_alerts', coalesce((SELECT l.list FROM lists l WHERE l.location_type = 'unit'), '[]'::json),
      'garage_alerts', coalesce((SELECT l.list FROM lists l WHERE l.location_type = 'garage'), '[]'::json),
      'recent_activity', coalesce((
        SELECT json_agg(json_build_object(
                 'id', l.id,
                 'item_name', coalesce((SELECT i.name FROM items i WHERE i.tenant_id = p_tenant AND i.id = l.item_id), 'Deleted item'),
                 'quantity_change', l.quantity_change,
                 'source_name', coalesce(CASE l.source_type
                                           WHEN 'unit' THEN (SELECT u.name FROM units u WHERE u.tenant_id = p_tenant AND u.id = l.unit_id)
                                           ELSE (SELECT g.name FROM garages g WHERE g.tenant_id = p_tenant AND g.id = l.garage_id) END,
                                         'Deleted location'),
                 'user_id', l.user_id,
                 'by_member', EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = p_tenant AND m.user_id = l.user_id),
                 'api_key', (SELECT k.name FROM api_keys k WHERE k.tenant_id = p_tenant AND k.id = l.api_key_id),
                 'created_at', to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                 ORDER BY l.created_at DESC, l.id)
        FROM activity l), '[]'::json))
  );
END
$function$;
