-- Usage totals taken in one order (docs/decisions/009-ledger-lock-order.md, consequence on the
-- usage totals): by item, then the daily rows by day, then the weekly rows by week, and within one
-- day or week the garages by key. A ledger row's trigger (usage_rollup_row) takes its item's day
-- then its week, which is that order. A unit's garage change or delete (usage_rollup_follow_unit)
-- used to walk its history day by day, taking each day's row and then its week's, so two of them
-- (or one and a delete that had just counted the unit's stock to 0) could take a week's row and a
-- day's row in opposite orders and deadlock; the stock storm of the concurrency tests met one
-- between a property deleted and another one moved to a new garage.
CREATE FUNCTION "garage_usage_day_add"(p_sign int, p_tenant uuid, p_day date, p_garage uuid, p_item uuid, p_used bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_sign > 0 THEN
    INSERT INTO garage_usage_daily AS t (tenant_id, day, garage_id, item_id, used) VALUES (p_tenant, p_day, p_garage, p_item, p_used)
    ON CONFLICT (tenant_id, day, garage_id, item_id) DO UPDATE SET used = t.used + excluded.used;
  ELSE
    -- Taken away only from totals that exist: a garage deleted with its totals has none.
    UPDATE garage_usage_daily t SET used = t.used - p_used
    WHERE t.tenant_id = p_tenant AND t.day = p_day AND t.garage_id = p_garage AND t.item_id = p_item;
  END IF;
END
$$;
--> statement-breakpoint
-- The week's row of the week starting on the Monday `p_week`.
CREATE FUNCTION "garage_usage_week_add"(p_sign int, p_tenant uuid, p_week date, p_garage uuid, p_item uuid, p_used bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_sign > 0 THEN
    INSERT INTO garage_usage_weekly AS t (tenant_id, week, garage_id, item_id, used) VALUES (p_tenant, p_week, p_garage, p_item, p_used)
    ON CONFLICT (tenant_id, week, garage_id, item_id) DO UPDATE SET used = t.used + excluded.used;
  ELSE
    UPDATE garage_usage_weekly t SET used = t.used - p_used
    WHERE t.tenant_id = p_tenant AND t.week = p_week AND t.garage_id = p_garage AND t.item_id = p_item;
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "garage_usage_add"(p_sign int, p_tenant uuid, p_day date, p_garage uuid, p_item uuid, p_used bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM garage_usage_day_add(p_sign, p_tenant, p_day, p_garage, p_item, p_used);
  PERFORM garage_usage_week_add(p_sign, p_tenant, date_trunc('week', p_day::timestamp)::date, p_garage, p_item, p_used);
END
$$;
--> statement-breakpoint
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
  ELSIF OLD.garage_id IS NULL THEN
    RETURN NULL;
  END IF;
  FOR h IN
    WITH used AS (
      SELECT (l.created_at AT TIME ZONE 'UTC')::date AS day, l.item_id, sum(-l.quantity_change)::bigint AS used
      FROM inventory_logs l
      WHERE l.tenant_id = OLD.tenant_id AND l.unit_id = OLD.id
        AND ledger_is_usage(l.source_type, l.quantity_change, l.type, l.reversed_at)
      GROUP BY 1, 2
    ), moved AS (
      SELECT v.garage_id, v.sign FROM (VALUES (OLD.garage_id, -1), (v_new_garage, 1)) AS v(garage_id, sign)
      WHERE v.garage_id IS NOT NULL
    ), totals AS (
      SELECT item_id, 0 AS level, day AS period, used FROM used
      UNION ALL
      SELECT item_id, 1, date_trunc('week', day::timestamp)::date, sum(used)::bigint FROM used GROUP BY 1, 3
    )
    SELECT t.item_id, t.level, t.period, m.garage_id, m.sign, t.used
    FROM totals t CROSS JOIN moved m
    ORDER BY t.item_id, t.level, t.period, m.garage_id
  LOOP
    IF h.level = 0 THEN
      PERFORM garage_usage_day_add(h.sign, OLD.tenant_id, h.period, h.garage_id, h.item_id, h.used);
    ELSE
      PERFORM garage_usage_week_add(h.sign, OLD.tenant_id, h.period, h.garage_id, h.item_id, h.used);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
