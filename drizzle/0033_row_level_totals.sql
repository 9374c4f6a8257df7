-- The totals kept by triggers (usage totals, decision 007; the Dashboard's alert counts, decision
-- 021; the forecast's change rows, decision 037) written by row-level triggers whose statements
-- name one company's rows by key, with their values (docs/decisions/042-citus-distribution.md):
-- on Citus a trigger runs on the worker holding the shard, and a statement there can neither read
-- a transition table nor insert the rows of a SELECT into a table with row-level security.
--
-- Usage totals: one ledger row's usage added to (p_sign 1) or taken from (-1) its property's day,
-- and its garage's day and week. A row that is usage has a unit and a quantity below 0.
CREATE FUNCTION "garage_usage_add"(p_sign int, p_tenant uuid, p_day date, p_garage uuid, p_item uuid, p_used bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_sign > 0 THEN
    INSERT INTO garage_usage_daily AS t (tenant_id, day, garage_id, item_id, used) VALUES (p_tenant, p_day, p_garage, p_item, p_used)
    ON CONFLICT (tenant_id, day, garage_id, item_id) DO UPDATE SET used = t.used + excluded.used;
    INSERT INTO garage_usage_weekly AS t (tenant_id, week, garage_id, item_id, used)
    VALUES (p_tenant, date_trunc('week', p_day::timestamp)::date, p_garage, p_item, p_used)
    ON CONFLICT (tenant_id, week, garage_id, item_id) DO UPDATE SET used = t.used + excluded.used;
  ELSE
    -- Taken away only from totals that exist: a garage deleted with its totals has none.
    UPDATE garage_usage_daily t SET used = t.used - p_used
    WHERE t.tenant_id = p_tenant AND t.day = p_day AND t.garage_id = p_garage AND t.item_id = p_item;
    UPDATE garage_usage_weekly t SET used = t.used - p_used
    WHERE t.tenant_id = p_tenant AND t.week = date_trunc('week', p_day::timestamp)::date AND t.garage_id = p_garage AND t.item_id = p_item;
  END IF;
END
$$;
--> statement-breakpoint
-- A ledger row in (TG_ARGV[0] = 1, NEW) or out (-1, OLD) of the usage totals. The triggers' WHEN
-- clauses call it only for rows that are usage (ledger_is_usage). The unit is locked FOR SHARE
-- until the transaction ends: its garage must not change meanwhile (a garage change moves the
-- history it can see, usage_rollup_follow_unit), and waiting for a change in progress lets this
-- row's usage go to the unit's new garage.
CREATE FUNCTION "usage_rollup_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_sign int := TG_ARGV[0]::int;
  v_tenant uuid;
  v_unit uuid;
  v_item uuid;
  v_day date;
  v_used bigint;
  v_cost_cents numeric;
  v_garage uuid;
BEGIN
  IF v_sign > 0 THEN
    v_tenant := NEW.tenant_id; v_unit := NEW.unit_id; v_item := NEW.item_id;
    v_day := (NEW.created_at AT TIME ZONE 'UTC')::date; v_used := -NEW.quantity_change; v_cost_cents := -NEW.quantity_change * NEW.unit_cost * 100;
    INSERT INTO unit_usage_daily AS d (tenant_id, day, unit_id, used, cost_cents) VALUES (v_tenant, v_day, v_unit, v_used, v_cost_cents)
    ON CONFLICT (tenant_id, day, unit_id) DO UPDATE SET used = d.used + excluded.used, cost_cents = d.cost_cents + excluded.cost_cents;
  ELSE
    v_tenant := OLD.tenant_id; v_unit := OLD.unit_id; v_item := OLD.item_id;
    v_day := (OLD.created_at AT TIME ZONE 'UTC')::date; v_used := -OLD.quantity_change; v_cost_cents := -OLD.quantity_change * OLD.unit_cost * 100;
    UPDATE unit_usage_daily d SET used = d.used - v_used, cost_cents = d.cost_cents - v_cost_cents
    WHERE d.tenant_id = v_tenant AND d.day = v_day AND d.unit_id = v_unit;
  END IF;
  SELECT u.garage_id INTO v_garage FROM units u WHERE u.tenant_id = v_tenant AND u.id = v_unit FOR SHARE;
  IF v_garage IS NOT NULL THEN
    PERFORM garage_usage_add(v_sign, v_tenant, v_day, v_garage, v_item, v_used);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "inventory_logs_usage_insert" ON "inventory_logs";--> statement-breakpoint
DROP TRIGGER "inventory_logs_usage_delete" ON "inventory_logs";--> statement-breakpoint
DROP TRIGGER "inventory_logs_usage_update_new" ON "inventory_logs";--> statement-breakpoint
DROP TRIGGER "inventory_logs_usage_update_old" ON "inventory_logs";--> statement-breakpoint
DROP FUNCTION "usage_rollup_apply"();--> statement-breakpoint
CREATE TRIGGER "inventory_logs_usage_insert" AFTER INSERT ON "inventory_logs" FOR EACH ROW
WHEN (ledger_is_usage(NEW.source_type, NEW.quantity_change, NEW.type, NEW.reversed_at)) EXECUTE FUNCTION "usage_rollup_row"('1');
--> statement-breakpoint
CREATE TRIGGER "inventory_logs_usage_delete" AFTER DELETE ON "inventory_logs" FOR EACH ROW
WHEN (ledger_is_usage(OLD.source_type, OLD.quantity_change, OLD.type, OLD.reversed_at)) EXECUTE FUNCTION "usage_rollup_row"('-1');
--> statement-breakpoint
-- An update is the old row out, then the new one in (marking a row undone takes it out).
CREATE TRIGGER "inventory_logs_usage_update_old" AFTER UPDATE ON "inventory_logs" FOR EACH ROW
WHEN (ledger_is_usage(OLD.source_type, OLD.quantity_change, OLD.type, OLD.reversed_at)) EXECUTE FUNCTION "usage_rollup_row"('-1');
--> statement-breakpoint
CREATE TRIGGER "inventory_logs_usage_update_new" AFTER UPDATE ON "inventory_logs" FOR EACH ROW
WHEN (ledger_is_usage(NEW.source_type, NEW.quantity_change, NEW.type, NEW.reversed_at)) EXECUTE FUNCTION "usage_rollup_row"('1');
--> statement-breakpoint
-- A unit moved to another garage (or deleted) takes its usage history with it, day by day and
-- item by item, as in migration 0016.
CREATE OR REPLACE FUNCTION "usage_rollup_follow_unit"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_new_garage uuid;
  h record;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.garage_id IS NOT DISTINCT FROM OLD.garage_id THEN
      RETURN NULL;
    END IF;
    v_new_garage := NEW.garage_id;
  END IF;
  FOR h IN
    SELECT (l.created_at AT TIME ZONE 'UTC')::date AS day, l.item_id, sum(-l.quantity_change)::bigint AS used
    FROM inventory_logs l
    WHERE l.tenant_id = OLD.tenant_id AND l.unit_id = OLD.id
      AND ledger_is_usage(l.source_type, l.quantity_change, l.type, l.reversed_at)
    GROUP BY 1, 2 ORDER BY 1, 2
  LOOP
    IF OLD.garage_id IS NOT NULL THEN
      PERFORM garage_usage_add(-1, OLD.tenant_id, h.day, OLD.garage_id, h.item_id, h.used);
    END IF;
    IF v_new_garage IS NOT NULL THEN
      PERFORM garage_usage_add(1, OLD.tenant_id, h.day, v_new_garage, h.item_id, h.used);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP FUNCTION "garage_usage_change"(int, uuid[], date[], uuid[], uuid[], bigint[]);
--> statement-breakpoint
-- Dashboard alert counts: a stock row in or out (TG_ARGV[0] 1 for NEW, -1 for OLD) counts in its
-- status's total when in alert (the triggers' WHEN). A row deleted with its company counts nowhere:
-- the company's counts go with it.
CREATE FUNCTION "unit_alert_counts_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_sign int := TG_ARGV[0]::int;
  v_status text;
BEGIN
  IF v_sign > 0 THEN
    v_status := stock_status(NEW.quantity, NEW.item_threshold);
    PERFORM unit_alert_counts_add(NEW.tenant_id, (v_status = 'low')::int, (v_status = 'critical')::int);
  ELSIF EXISTS (SELECT 1 FROM tenants t WHERE t.id = OLD.tenant_id) THEN
    v_status := stock_status(OLD.quantity, OLD.item_threshold);
    PERFORM unit_alert_counts_add(OLD.tenant_id, -(v_status = 'low')::int, -(v_status = 'critical')::int);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An updated stock row moves from its old status's count to its new one's when they differ
-- (compared here rather than in a WHEN clause, which is prepared again for every statement:
-- migration 0015).
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
DROP TRIGGER "unit_inventory_alert_counts_update" ON "unit_inventory";--> statement-breakpoint
DROP TRIGGER "unit_inventory_alert_counts_insert" ON "unit_inventory";--> statement-breakpoint
DROP TRIGGER "unit_inventory_alert_counts_delete" ON "unit_inventory";--> statement-breakpoint
DROP FUNCTION "unit_alert_counts_rows_updated"();--> statement-breakpoint
DROP FUNCTION "unit_alert_counts_rows"();--> statement-breakpoint
CREATE TRIGGER "unit_inventory_alert_counts_update" AFTER UPDATE OF "quantity", "item_threshold" ON "unit_inventory"
FOR EACH ROW EXECUTE FUNCTION "unit_alert_counts_row_change"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_alert_counts_insert" AFTER INSERT ON "unit_inventory" FOR EACH ROW
WHEN (stock_in_alert(NEW.quantity, NEW.item_threshold)) EXECUTE FUNCTION "unit_alert_counts_row"('1');
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_alert_counts_delete" AFTER DELETE ON "unit_inventory" FOR EACH ROW
WHEN (stock_in_alert(OLD.quantity, OLD.item_threshold)) EXECUTE FUNCTION "unit_alert_counts_row"('-1');
--> statement-breakpoint
-- The forecast's change rows: one per changed row's property (TG_ARGV[0] 'new' or 'old'; for a
-- stay moved to another property, both). Appended, never updated: writers never wait here.
CREATE FUNCTION "forecast_change_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'new' THEN
    INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (NEW.tenant_id, NEW.unit_id);
  ELSE
    INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (OLD.tenant_id, OLD.unit_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "forecast_change_row_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (NEW.tenant_id, NEW.unit_id);
  IF NEW.unit_id IS DISTINCT FROM OLD.unit_id THEN
    INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (OLD.tenant_id, OLD.unit_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "unit_inventory_forecast_change_update" ON "unit_inventory";--> statement-breakpoint
DROP TRIGGER "unit_inventory_forecast_change_insert" ON "unit_inventory";--> statement-breakpoint
DROP TRIGGER "unit_inventory_forecast_change_delete" ON "unit_inventory";--> statement-breakpoint
DROP TRIGGER "reservations_forecast_change_insert" ON "reservations";--> statement-breakpoint
DROP TRIGGER "reservations_forecast_change_delete" ON "reservations";--> statement-breakpoint
DROP TRIGGER "reservations_forecast_change_update" ON "reservations";--> statement-breakpoint
DROP FUNCTION "forecast_change_rows"();--> statement-breakpoint
DROP FUNCTION "forecast_change_rows_updated"();--> statement-breakpoint
CREATE TRIGGER "unit_inventory_forecast_change_update" AFTER UPDATE OF "quantity", "item_threshold" ON "unit_inventory" FOR EACH ROW
WHEN (NEW.quantity IS DISTINCT FROM OLD.quantity OR NEW.item_threshold IS DISTINCT FROM OLD.item_threshold)
EXECUTE FUNCTION "forecast_change_row"('new');
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_forecast_change_insert" AFTER INSERT ON "unit_inventory" FOR EACH ROW EXECUTE FUNCTION "forecast_change_row"('new');
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_forecast_change_delete" AFTER DELETE ON "unit_inventory" FOR EACH ROW EXECUTE FUNCTION "forecast_change_row"('old');
--> statement-breakpoint
CREATE TRIGGER "reservations_forecast_change_insert" AFTER INSERT ON "reservations" FOR EACH ROW EXECUTE FUNCTION "forecast_change_row"('new');
--> statement-breakpoint
CREATE TRIGGER "reservations_forecast_change_delete" AFTER DELETE ON "reservations" FOR EACH ROW EXECUTE FUNCTION "forecast_change_row"('old');
--> statement-breakpoint
CREATE TRIGGER "reservations_forecast_change_update" AFTER UPDATE ON "reservations" FOR EACH ROW EXECUTE FUNCTION "forecast_change_row_updated"();
--> statement-breakpoint
-- An item's name, category or default use per stay: a change row for every property holding it,
-- one by one (an INSERT … SELECT of forecast_changes, whose id is a volatile default, is not one
-- Citus can route to the company's shard).
CREATE OR REPLACE FUNCTION "forecast_change_item"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_unit uuid;
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.category IS DISTINCT FROM OLD.category
    OR NEW.usage_per_stay_default IS DISTINCT FROM OLD.usage_per_stay_default THEN
    FOR v_unit IN SELECT s.unit_id FROM unit_inventory s WHERE s.tenant_id = NEW.tenant_id AND s.item_id = NEW.id LOOP
      INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (NEW.tenant_id, v_unit);
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;
