-- The stock taps, Restock to minimum and a pick list's delivery written set-based
-- (docs/decisions/038-stock-commands.md, docs/performance.md "Stock commands: the requests the web
-- sends"): the lines of one call move by a few statements instead of four per line.
--
-- The lines of a call are split into rounds: a line's round is its rank among the call's lines of
-- the same stock row (transfer: the same garage and item; consumption: the same unit and item), so
-- within a round no two lines touch one row and one UPDATE moves them all. Rounds run in order,
-- so each line still gets the outcome it would have had alone after the lines before it. A call
-- almost always has one round: the phone's taps of one row are added up before they are sent, and
-- Restock to minimum or a delivery names each item once.
--
-- The statements are static, so their plans are cached per connection: planning these joins for
-- every call (EXECUTE) cost more than the lines themselves. A cached plan is made for a company of
-- average size (3 or 4 properties), so a join with `units` would scan every property of a large
-- one (migration 0013): units are read by key, each by its own lookup (a loop, or a subquery per
-- row), while stock rows, of which even an average company has a hundred, are joined to the
-- arrays' `unnest`. Locks are taken as before, in the order of
-- docs/decisions/009-ledger-lock-order.md: units one by one in key order, then each kind of
-- stock row by one statement in key order.
-- Ledger rows get time-ordered ids (UUID version 7, RFC 9562: 48 bits of Unix milliseconds, then
-- random bits), so that the company's new rows go to the end of the (tenant_id, id) key instead of
-- a random page of it: a transfer's ledger rows otherwise read and rewrite as many pages of that
-- index as they have rows. Made from gen_random_uuid(): its first 48 bits become the time and its
-- version nibble 7. PostgreSQL 15 has no such function.
CREATE FUNCTION "uuid_v7"() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;
--> statement-breakpoint
ALTER TABLE "inventory_logs" ALTER COLUMN "id" SET DEFAULT uuid_v7();
--> statement-breakpoint
-- The first lock of a batched stock call: its units FOR SHARE (their garage cannot change, they
-- cannot be deleted, until the transaction ends), one by one in key order, each by its own lookup
-- by key (see above).
CREATE FUNCTION "lock_stock_units"(p_tenant uuid, p_units uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT x.id FROM unnest(p_units) AS x(id) ORDER BY x.id LOOP
    PERFORM 1 FROM units u WHERE u.tenant_id = p_tenant AND u.id = r.id FOR SHARE;
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "lock_transfer_rows"(p_tenant uuid, p_units uuid[], p_items uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_stock_units(p_tenant, p_units);
  PERFORM 1 FROM unit_inventory s
  JOIN (SELECT DISTINCT x.unit_id, x.item_id FROM unnest(p_units, p_items) AS x(unit_id, item_id)) x
    ON s.unit_id = x.unit_id AND s.item_id = x.item_id
  WHERE s.tenant_id = p_tenant
  ORDER BY s.unit_id, s.item_id FOR UPDATE OF s;
  -- The garage of each unit as locked above (FOR SHARE: it cannot change until this transaction ends).
  PERFORM 1 FROM garage_inventory g
  JOIN (SELECT DISTINCT (SELECT u.garage_id FROM units u WHERE u.tenant_id = p_tenant AND u.id = x.unit_id) AS garage_id, x.item_id
        FROM unnest(p_units, p_items) AS x(unit_id, item_id)) x
    ON g.garage_id = x.garage_id AND g.item_id = x.item_id
  WHERE g.tenant_id = p_tenant
  ORDER BY g.garage_id, g.item_id FOR UPDATE OF g;
END
$$;
--> statement-breakpoint
-- The check of a batched stock call (`p_caller`) after it locked its lines' stock rows: a line
-- whose row it does not hold (`p_held`) but which exists now was opened by another transaction
-- meanwhile; taking that row now would lock it out of the order of
-- docs/decisions/009-ledger-lock-order.md, so the call lost a race and is run again (40001,
-- naming the first such line).
CREATE FUNCTION "check_rows_held"(p_caller text, p_tenant uuid, p_units uuid[], p_items uuid[], p_held boolean[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_opened int;
BEGIN
  SELECT min(x.k) INTO v_opened
  FROM unnest(p_units, p_items, p_held) WITH ORDINALITY AS x(unit_id, item_id, held, k)
  WHERE NOT x.held AND EXISTS (SELECT 1 FROM unit_inventory s WHERE s.tenant_id = p_tenant AND s.unit_id = x.unit_id AND s.item_id = x.item_id);
  IF v_opened IS NOT NULL THEN
    RAISE EXCEPTION '%: the stock row of line % was opened meanwhile', p_caller, v_opened USING ERRCODE = '40001';
  END IF;
END
$$;
--> statement-breakpoint
-- As in 0026: moves p_quantities[k] of p_items[k] from the garage of p_units[k] to that unit; a
-- line moves only when the unit has a stock row of the item, the unit has a garage and the garage
-- holds at least the quantity, each moved line writing two ledger rows sharing a transfer id (minus
-- at the garage, plus at the unit, whose id is `movement_id`). Now by rounds (above): per round
-- one statement takes from the garages and brings to the units, by atomic SQL guarded so a garage
-- never goes below zero; then one statement writes every movement. Runs with the caller's rights.
-- Returns one row per line, as in 0026.
CREATE OR REPLACE FUNCTION "transfer_to_units"(
  p_tenant uuid, p_units uuid[], p_items uuid[], p_quantities int[], p_users uuid[], p_type text, p_note text
) RETURNS TABLE (line int, outcome text, garage_quantity int, unit_quantity int, threshold int, movement_id uuid) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  n int := coalesce(array_length(p_units, 1), 0);
  v_held boolean[];
  v_garages uuid[];
  v_thresholds int[];
  v_rounds int[];
  v_garage_after int[] := array_fill(NULL::int, ARRAY[n]);
  v_unit_after int[] := array_fill(NULL::int, ARRAY[n]);
  v_ids uuid[] := array_fill(NULL::uuid, ARRAY[n]);
  r record;
BEGIN
  PERFORM check_stock_lines('transfer_to_units', 'moves', p_units, p_items, p_quantities, p_users);
  IF n = 0 THEN
    RETURN;
  END IF;
  PERFORM lock_transfer_rows(p_tenant, p_units, p_items);
  -- Each line's stock row as locked above, with its unit's garage and its round. A row opened by
  -- another transaction after the locks were taken would be locked after the garage rows, against
  -- the lock order: a row this transaction does not hold is skipped, and one that exists then is
  -- a lost race, run again (40001).
  WITH held AS (
    SELECT s.unit_id, s.item_id, s.item_threshold,
           (SELECT u.garage_id FROM units u WHERE u.tenant_id = p_tenant AND u.id = s.unit_id) AS garage_id
    FROM unit_inventory s
    JOIN (SELECT DISTINCT x.unit_id, x.item_id FROM unnest(p_units, p_items) AS x(unit_id, item_id)) x
      ON s.unit_id = x.unit_id AND s.item_id = x.item_id
    WHERE s.tenant_id = p_tenant
    FOR UPDATE OF s SKIP LOCKED
  ), lines AS (
    SELECT l.k, h.unit_id IS NOT NULL AS held, h.garage_id, h.item_threshold,
           CASE WHEN h.garage_id IS NOT NULL THEN row_number() OVER (PARTITION BY h.garage_id, l.item_id ORDER BY l.k) END AS round
    FROM unnest(p_units, p_items) WITH ORDINALITY AS l(unit_id, item_id, k)
    LEFT JOIN held h ON h.unit_id = l.unit_id AND h.item_id = l.item_id
  )
  SELECT array_agg(lines.held ORDER BY lines.k), array_agg(lines.garage_id ORDER BY lines.k),
         array_agg(lines.item_threshold ORDER BY lines.k), array_agg(lines.round::int ORDER BY lines.k)
  INTO v_held, v_garages, v_thresholds, v_rounds
  FROM lines;
  PERFORM check_rows_held('transfer_to_units', p_tenant, p_units, p_items, v_held);
  FOR v_round IN 1 .. coalesce((SELECT max(x.round) FROM unnest(v_rounds) AS x(round)), 0) LOOP
    FOR r IN
      WITH moving AS (
        SELECT x.k, x.unit_id, x.item_id, x.quantity, x.garage_id
        FROM unnest(p_units, p_items, p_quantities, v_garages, v_rounds) WITH ORDINALITY AS x(unit_id, item_id, quantity, garage_id, round, k)
        WHERE x.round = v_round
      ), taken AS (
        UPDATE garage_inventory g SET quantity = g.quantity - m.quantity, updated_at = now()
        FROM moving m
        WHERE g.tenant_id = p_tenant AND g.garage_id = m.garage_id AND g.item_id = m.item_id AND g.quantity >= m.quantity
        RETURNING m.k, g.quantity
      ), brought AS (
        UPDATE unit_inventory s SET quantity = s.quantity + m.quantity, updated_at = now()
        FROM moving m JOIN taken t ON t.k = m.k
        WHERE s.tenant_id = p_tenant AND s.unit_id = m.unit_id AND s.item_id = m.item_id
        RETURNING m.k, s.quantity
      )
      SELECT t.k, t.quantity AS garage_after, b.quantity AS unit_after FROM taken t JOIN brought b ON b.k = t.k
    LOOP
      v_garage_after[r.k] := r.garage_after;
      v_unit_after[r.k] := r.unit_after;
      v_ids[r.k] := uuid_v7();
    END LOOP;
  END LOOP;
  INSERT INTO inventory_logs (id, tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, transfer_id, unit_cost, user_id, note)
  SELECT CASE WHEN side.source_type = 'unit' THEN x.id ELSE uuid_v7() END, p_tenant, i.id, side.sign * x.quantity, side.source_type,
         CASE WHEN side.source_type = 'unit' THEN x.unit_id END, CASE WHEN side.source_type = 'garage' THEN x.garage_id END,
         p_type, x.transfer_id, i.count_cost, x.user_id, p_note
  FROM (SELECT y.*, gen_random_uuid() AS transfer_id
        FROM unnest(v_ids, p_units, p_items, p_quantities, p_users, v_garages) AS y(id, unit_id, item_id, quantity, user_id, garage_id)
        WHERE y.id IS NOT NULL) x
  JOIN items i ON i.tenant_id = p_tenant AND i.id = x.item_id
  CROSS JOIN (VALUES (-1, 'garage'), (1, 'unit')) AS side(sign, source_type);
  RETURN QUERY
    SELECT x.k::int,
           CASE WHEN NOT x.held THEN 'no_stock_row' WHEN x.garage_id IS NULL THEN 'no_garage'
                WHEN x.id IS NULL THEN 'garage_short' ELSE 'moved' END,
           x.garage_after, x.unit_after, x.threshold, x.id
    FROM unnest(v_held, v_garages, v_ids, v_garage_after, v_unit_after, v_thresholds)
      WITH ORDINALITY AS x(held, garage_id, id, garage_after, unit_after, threshold, k)
    ORDER BY x.k;
END
$$;
--> statement-breakpoint
-- As in 0026: p_quantities[k] (> 0) of p_items[k] used at p_units[k], or what the row holds when
-- it holds less (nothing written at 0). The units FOR SHARE, then their stock rows, each in key
-- order; then the lines by rounds (above; a round never has two lines of one unit and item), one
-- atomic UPDATE per round; then every movement by one statement, so that the usage totals its
-- trigger keeps are locked in their key order (usage_rollup_apply). Runs with the caller's
-- rights. Returns one row per line, as in 0026.
CREATE OR REPLACE FUNCTION "consume_at_units"(
  p_tenant uuid, p_units uuid[], p_items uuid[], p_quantities int[], p_users uuid[]
) RETURNS TABLE (line int, outcome text, unit_quantity int, threshold int, movement_id uuid) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  n int := coalesce(array_length(p_units, 1), 0);
  v_held boolean[];
  v_thresholds int[];
  v_rounds int[];
  v_after int[];
  v_used int[] := array_fill(0, ARRAY[n]);
  v_ids uuid[] := array_fill(NULL::uuid, ARRAY[n]);
  r record;
BEGIN
  PERFORM check_stock_lines('consume_at_units', 'uses', p_units, p_items, p_quantities, p_users);
  IF n = 0 THEN
    RETURN;
  END IF;
  PERFORM lock_stock_units(p_tenant, p_units);
  -- The rows, locked in key order, with each line's round. A row opened by another transaction
  -- after this statement began is not taken out of the lock order (see transfer_to_units).
  WITH held AS (
    SELECT s.unit_id, s.item_id, s.quantity, s.item_threshold
    FROM unit_inventory s
    JOIN (SELECT DISTINCT x.unit_id, x.item_id FROM unnest(p_units, p_items) AS x(unit_id, item_id)) x
      ON s.unit_id = x.unit_id AND s.item_id = x.item_id
    WHERE s.tenant_id = p_tenant
    ORDER BY s.unit_id, s.item_id
    FOR UPDATE OF s
  ), lines AS (
    SELECT l.k, h.unit_id IS NOT NULL AS held, h.quantity, h.item_threshold,
           CASE WHEN h.unit_id IS NOT NULL THEN row_number() OVER (PARTITION BY l.unit_id, l.item_id ORDER BY l.k) END AS round
    FROM unnest(p_units, p_items) WITH ORDINALITY AS l(unit_id, item_id, k)
    LEFT JOIN held h ON h.unit_id = l.unit_id AND h.item_id = l.item_id
  )
  SELECT array_agg(lines.held ORDER BY lines.k), array_agg(lines.item_threshold ORDER BY lines.k),
         array_agg(lines.round::int ORDER BY lines.k), array_agg(lines.quantity ORDER BY lines.k)
  INTO v_held, v_thresholds, v_rounds, v_after
  FROM lines;
  PERFORM check_rows_held('consume_at_units', p_tenant, p_units, p_items, v_held);
  FOR v_round IN 1 .. coalesce((SELECT max(x.round) FROM unnest(v_rounds) AS x(round)), 0) LOOP
    FOR r IN
      WITH moving AS (
        SELECT x.k, x.unit_id, x.item_id, s.quantity AS before, least(x.quantity, s.quantity) AS used
        FROM unnest(p_units, p_items, p_quantities, v_rounds) WITH ORDINALITY AS x(unit_id, item_id, quantity, round, k)
        JOIN unit_inventory s ON s.tenant_id = p_tenant AND s.unit_id = x.unit_id AND s.item_id = x.item_id
        WHERE x.round = v_round
      ), taken AS (
        UPDATE unit_inventory s SET quantity = s.quantity - m.used, updated_at = now()
        FROM moving m
        WHERE s.tenant_id = p_tenant AND s.unit_id = m.unit_id AND s.item_id = m.item_id AND m.used > 0 AND s.quantity >= m.used
        RETURNING m.k, s.quantity
      )
      SELECT m.k, m.used, coalesce(t.quantity, m.before) AS after, t.k IS NOT NULL AS wrote
      FROM moving m LEFT JOIN taken t ON t.k = m.k
    LOOP
      v_used[r.k] := r.used;
      v_after[r.k] := r.after;
      IF r.wrote THEN
        v_ids[r.k] := uuid_v7();
      END IF;
    END LOOP;
  END LOOP;
  INSERT INTO inventory_logs (id, tenant_id, item_id, quantity_change, source_type, unit_id, type, unit_cost, user_id)
  SELECT x.id, p_tenant, i.id, -x.used, 'unit', x.unit_id, 'consumption', i.count_cost, x.user_id
  FROM unnest(v_ids, v_used, p_units, p_items, p_users) AS x(id, used, unit_id, item_id, user_id)
  JOIN items i ON i.tenant_id = p_tenant AND i.id = x.item_id
  WHERE x.id IS NOT NULL
  ORDER BY x.unit_id, x.item_id;
  RETURN QUERY
    SELECT x.k::int, CASE WHEN x.held THEN 'used' ELSE 'no_stock_row' END, x.after, x.threshold, x.id
    FROM unnest(v_held, v_after, v_thresholds, v_ids) WITH ORDINALITY AS x(held, after, threshold, id, k)
    ORDER BY x.k;
END
$$;
--> statement-breakpoint
-- The triggers that follow a stock row's change (the Dashboard's alert counts, migration 0015; the
-- forecast's change rows, migration 0023) fire once per UPDATE statement instead of once per row:
-- a statement that changes many rows (a Restock to minimum, a delivery, a count, the rows an
-- item's new minimum threshold cascades to) adds up its rows' changes of status in one call and
-- names each property once. A transition table cannot go with a column list (UPDATE OF), so they
-- fire for every UPDATE of unit_inventory, whose other columns are its keys and updated_at.
CREATE FUNCTION "unit_alert_counts_rows_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT n.tenant_id,
           sum((stock_status(n.quantity, n.item_threshold) = 'low')::int - (stock_status(o.quantity, o.item_threshold) = 'low')::int)::int AS low,
           sum((stock_status(n.quantity, n.item_threshold) = 'critical')::int - (stock_status(o.quantity, o.item_threshold) = 'critical')::int)::int AS critical
    FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id
    WHERE stock_in_alert(o.quantity, o.item_threshold) OR stock_in_alert(n.quantity, n.item_threshold)
    GROUP BY n.tenant_id ORDER BY n.tenant_id
  LOOP
    PERFORM unit_alert_counts_add(r.tenant_id, r.low, r.critical);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "unit_inventory_alert_counts_update" ON "unit_inventory";
--> statement-breakpoint
DROP FUNCTION "unit_alert_counts_row_change"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_alert_counts_update" AFTER UPDATE ON "unit_inventory"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "unit_alert_counts_rows_updated"();
--> statement-breakpoint
DROP TRIGGER "unit_inventory_forecast_change_update" ON "unit_inventory";
--> statement-breakpoint
DROP FUNCTION "forecast_change_stock_row"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_forecast_change_update" AFTER UPDATE ON "unit_inventory"
REFERENCING NEW TABLE AS changed_rows
FOR EACH STATEMENT EXECUTE FUNCTION "forecast_change_rows"();
