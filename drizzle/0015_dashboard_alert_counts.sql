-- The Dashboard's counts of unit stock rows low and critical, kept by the statements that change
-- stock, and the Dashboard read as one function whose plan each connection keeps
-- (docs/decisions/021-dashboard-alert-counts.md).
--
-- The counts of a tenant are the sums over its rows of unit_alert_counts (server/db/schema/stock.ts).
CREATE TABLE "unit_alert_counts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"low" integer NOT NULL,
	"critical" integer NOT NULL,
	CONSTRAINT "unit_alert_counts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "unit_alert_counts" ADD CONSTRAINT "unit_alert_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Each row is rewritten in place by every status change of its tenant: room on the page keeps
-- those rewrites heap-only (no new index entries, old versions pruned as the page is read).
ALTER TABLE "unit_alert_counts" SET (fillfactor = 50);
--> statement-breakpoint
-- The stock status rule (docs/product.md "Stock movements and statuses"), its one SQL home:
-- server/modules/stock/rules.ts calls these functions, and the triggers below use them. They are
-- plain SQL expressions that PostgreSQL inlines into the calling query, so a query written with
-- them still matches the partial indexes `quantity <= item_threshold` of migration 0004. The
-- TypeScript form is `stockStatus` in common/contracts/stock.ts (rules.test.ts checks they agree).
CREATE FUNCTION "stock_is_critical"(quantity integer) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN quantity <= 0;
--> statement-breakpoint
CREATE FUNCTION "stock_in_alert"(quantity integer, threshold integer) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN quantity <= threshold;
--> statement-breakpoint
CREATE FUNCTION "stock_status"(quantity integer, threshold integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN stock_is_critical(quantity) THEN 'critical' WHEN stock_in_alert(quantity, threshold) THEN 'low' ELSE 'sufficient' END;
--> statement-breakpoint
-- The counts of existing tenants, from their current rows (row-level security is forced on
-- unit_inventory: the backfill must see every tenant's rows).
ALTER TABLE "unit_inventory" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
INSERT INTO "unit_alert_counts" ("tenant_id", "low", "critical")
SELECT "tenant_id", count(*) FILTER (WHERE stock_status("quantity", "item_threshold") = 'low'),
       count(*) FILTER (WHERE stock_status("quantity", "item_threshold") = 'critical')
FROM "unit_inventory"
WHERE stock_in_alert("quantity", "item_threshold")
GROUP BY "tenant_id";
--> statement-breakpoint
ALTER TABLE "unit_inventory" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "unit_alert_counts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "unit_alert_counts" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "unit_alert_counts" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE "unit_alert_counts" TO inventory_app;
--> statement-breakpoint
-- Adds p_low and p_critical to the counts of p_tenant, in one of the tenant's rows that no other
-- transaction holds (SKIP LOCKED), or in a new row when every one is held: concurrent writers of
-- one tenant never wait for each other here, so no lock joins the order of
-- docs/decisions/009-ledger-lock-order.md and nothing can deadlock on it. A tenant has as many rows
-- as writers ever changed a status at the same moment (a few). The rows are updated in place
-- (no indexed column changes: heap-only updates, pruned without vacuum). Runs as the writing role:
-- row-level security keeps it inside the writer's tenant.
CREATE FUNCTION "unit_alert_counts_add"(p_tenant uuid, p_low integer, p_critical integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_low = 0 AND p_critical = 0 THEN
    RETURN;
  END IF;
  UPDATE unit_alert_counts c SET low = c.low + p_low, critical = c.critical + p_critical
  WHERE c.tenant_id = p_tenant
    AND c.id = (SELECT f.id FROM unit_alert_counts f WHERE f.tenant_id = p_tenant LIMIT 1 FOR UPDATE SKIP LOCKED);
  IF NOT FOUND THEN
    INSERT INTO unit_alert_counts (tenant_id, low, critical) VALUES (p_tenant, p_low, p_critical);
  END IF;
END
$$;
--> statement-breakpoint
-- An updated stock row: when its status changed, moves it from its old status's count to its new
-- one's. A row's tenant never changes. The statuses are compared here rather than in a WHEN
-- clause: PL/pgSQL keeps the expressions' plans for the connection, while a WHEN clause is
-- prepared again for every statement, and a plus press is one statement (10,000 single-row
-- updates took 4.7 microseconds more each with this function, 42 with
-- `WHEN (stock_status(OLD...) IS DISTINCT FROM stock_status(NEW...))`).
CREATE FUNCTION "unit_alert_counts_row_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_old text := stock_status(OLD.quantity, OLD.item_threshold);
  v_new text := stock_status(NEW.quantity, NEW.item_threshold);
BEGIN
  IF v_new <> v_old THEN
    PERFORM unit_alert_counts_add(NEW.tenant_id,
      (v_new = 'low')::int - (v_old = 'low')::int,
      (v_new = 'critical')::int - (v_old = 'critical')::int);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Stock rows in or out of the counts, per statement: TG_ARGV[0] is 1 for rows inserted, -1 for
-- rows deleted. One addition per tenant and statement, however many rows (onboarding's new units,
-- a unit's or an item's deletion). Rows deleted with their tenant count nowhere: the tenant's
-- counts go with it.
CREATE FUNCTION "unit_alert_counts_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_sign int := TG_ARGV[0]::int;
  r record;
BEGIN
  FOR r IN
    SELECT c.tenant_id,
           count(*) FILTER (WHERE stock_status(c.quantity, c.item_threshold) = 'low')::int AS low,
           count(*) FILTER (WHERE stock_status(c.quantity, c.item_threshold) = 'critical')::int AS critical
    FROM changed_rows c
    WHERE stock_in_alert(c.quantity, c.item_threshold) AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = c.tenant_id)
    GROUP BY c.tenant_id ORDER BY c.tenant_id
  LOOP
    PERFORM unit_alert_counts_add(r.tenant_id, v_sign * r.low, v_sign * r.critical);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_alert_counts_update" AFTER UPDATE OF "quantity", "item_threshold" ON "unit_inventory"
FOR EACH ROW EXECUTE FUNCTION "unit_alert_counts_row_change"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_alert_counts_insert" AFTER INSERT ON "unit_inventory" REFERENCING NEW TABLE AS changed_rows
FOR EACH STATEMENT EXECUTE FUNCTION "unit_alert_counts_rows"('1');
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_alert_counts_delete" AFTER DELETE ON "unit_inventory" REFERENCING OLD TABLE AS changed_rows
FOR EACH STATEMENT EXECUTE FUNCTION "unit_alert_counts_rows"('-1');
--> statement-breakpoint
-- The Dashboard (docs/product.md "Screens: Dashboard") as one JSON value, for server/modules/
-- dashboard/service.ts: the counts from unit_alert_counts, the first p_limit rows in alert of each
-- kind of location (critical first, then newest; read in that order from the partial indexes
-- `*_inventory_alert_idx` of migration 0004, stopping at the limit), and the newest p_limit
-- ledger rows that changed a quantity.
--
-- PL/pgSQL keeps the statement's plan for the rest of the connection, so a read no longer pays
-- for planning it. That plan is generic: made for a tenant of average size, whatever tenant
-- calls. So the statement leaves the planner no join to choose: each list is one ordered index
-- scan that stops at the limit, and names are looked up by key for the rows it returns (a join
-- planned for a tenant of 3 units read a 1,000-unit tenant's units once per row in alert).
-- Runs with the caller's rights: row-level security applies as to any tenant query.
CREATE FUNCTION "tenant_dashboard"(p_tenant uuid, p_limit integer) RETURNS json LANGUAGE plpgsql STABLE AS $$
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
      SELECT x.id, x.item_id, x.quantity_change, x.source_type, x.unit_id, x.garage_id, x.created_at
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
                 'created_at', to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                 ORDER BY l.created_at DESC, l.id)
        FROM activity l), '[]'::json))
  );
END
$$;
