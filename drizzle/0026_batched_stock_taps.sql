-- The phone's taps written together (docs/decisions/038-stock-commands.md): the transfers and the
-- consumptions that a company's people send at the same moment go into one transaction and one
-- call, so each line must hand back the movement it wrote at the unit (what Undo reverses): a
-- transaction's own rows can no longer tell two taps of one row apart.
--
-- transfer_to_units: as in 0013, plus `movement_id`, the id of the unit's movement of a moved
-- line. Its result type changes, hence DROP and CREATE.
-- The lines a batched stock call takes, checked once for both: arrays of one length, every
-- quantity positive; else 22023 naming the caller (`p_caller`) and what a line does (`p_verb`).
CREATE FUNCTION "check_stock_lines"(
  p_caller text, p_verb text, p_units uuid[], p_items uuid[], p_quantities int[], p_users uuid[]
) RETURNS void LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF array_length(p_items, 1) IS DISTINCT FROM array_length(p_units, 1)
     OR array_length(p_quantities, 1) IS DISTINCT FROM array_length(p_units, 1)
     OR array_length(p_users, 1) IS DISTINCT FROM array_length(p_units, 1) THEN
    RAISE EXCEPTION '%: the line arrays differ in length', p_caller USING ERRCODE = '22023';
  END IF;
  FOR k IN 1 .. coalesce(array_length(p_units, 1), 0) LOOP
    IF p_quantities[k] IS NULL OR p_quantities[k] <= 0 THEN
      RAISE EXCEPTION '%: line % % % (must be positive)', p_caller, k, p_verb, p_quantities[k] USING ERRCODE = '22023';
    END IF;
  END LOOP;
END
$$;
--> statement-breakpoint
DROP FUNCTION "transfer_to_units"(uuid, uuid[], uuid[], int[], uuid[], text, text);
--> statement-breakpoint
CREATE FUNCTION "transfer_to_units"(
  p_tenant uuid, p_units uuid[], p_items uuid[], p_quantities int[], p_users uuid[], p_type text, p_note text
) RETURNS TABLE (line int, outcome text, garage_quantity int, unit_quantity int, threshold int, movement_id uuid) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k int;
  v_garage uuid;
  v_transfer uuid;
BEGIN
  PERFORM check_stock_lines('transfer_to_units', 'moves', p_units, p_items, p_quantities, p_users);
  PERFORM lock_transfer_rows(p_tenant, p_units, p_items);
  FOR k IN 1 .. coalesce(array_length(p_units, 1), 0) LOOP
    line := k;
    garage_quantity := NULL;
    unit_quantity := NULL;
    threshold := NULL;
    movement_id := NULL;
    -- The row as locked above. One opened by another transaction after the locks were taken would
    -- be locked here after the garage rows, against the lock order: a row this transaction does
    -- not hold is skipped, and one that exists then is a lost race, run again (40001).
    SELECT u.garage_id, s.item_threshold INTO v_garage, threshold
    FROM unit_inventory s JOIN units u ON u.tenant_id = s.tenant_id AND u.id = s.unit_id
    WHERE s.tenant_id = p_tenant AND s.unit_id = p_units[k] AND s.item_id = p_items[k]
    FOR UPDATE OF s SKIP LOCKED;
    IF NOT FOUND THEN
      IF EXISTS (SELECT 1 FROM unit_inventory s WHERE s.tenant_id = p_tenant AND s.unit_id = p_units[k] AND s.item_id = p_items[k]) THEN
        RAISE EXCEPTION 'transfer_to_units: the stock row of line % was opened meanwhile', k USING ERRCODE = '40001';
      END IF;
      outcome := 'no_stock_row';
    ELSIF v_garage IS NULL THEN
      outcome := 'no_garage';
    ELSE
      UPDATE garage_inventory g SET quantity = g.quantity - p_quantities[k], updated_at = now()
      WHERE g.tenant_id = p_tenant AND g.garage_id = v_garage AND g.item_id = p_items[k] AND g.quantity >= p_quantities[k]
      RETURNING g.quantity INTO garage_quantity;
      IF NOT FOUND THEN
        outcome := 'garage_short';
      ELSE
        UPDATE unit_inventory s SET quantity = s.quantity + p_quantities[k], updated_at = now()
        WHERE s.tenant_id = p_tenant AND s.unit_id = p_units[k] AND s.item_id = p_items[k]
        RETURNING s.quantity INTO unit_quantity;
        v_transfer := gen_random_uuid();
        WITH logged AS (
          INSERT INTO inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, transfer_id, unit_cost, user_id, note)
          SELECT p_tenant, i.id, side.change, side.source_type, side.unit_id, side.garage_id, p_type, v_transfer, i.count_cost, p_users[k], p_note
          FROM items i
          CROSS JOIN (VALUES (-p_quantities[k], 'garage', NULL::uuid, v_garage),
                             (p_quantities[k], 'unit', p_units[k], NULL::uuid)) AS side(change, source_type, unit_id, garage_id)
          WHERE i.tenant_id = p_tenant AND i.id = p_items[k]
          RETURNING id, source_type
        )
        SELECT logged.id INTO movement_id FROM logged WHERE logged.source_type = 'unit';
        outcome := 'moved';
      END IF;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;
--> statement-breakpoint
-- Consumption at units (the minus button, docs/product.md "Stock movements and statuses"):
-- p_quantities[k] (> 0) of p_items[k] used at p_units[k], or what the row holds when it holds
-- less; at 0 nothing is written. Locks first, in the order of docs/decisions/009-ledger-lock-order.md:
-- the units FOR SHARE (the usage a consumption writes makes the ledger's trigger lock its unit,
-- which must not come after its stock row), then their stock rows, each in key order; then the
-- lines in order, each by atomic SQL on its locked row; then every movement by one statement, so
-- that the usage totals its trigger keeps are locked in their key order (usage_rollup_apply), not
-- in the lines' order. Runs with the caller's rights.
-- Returns one row per line: 'used' (with the quantity after, the item's minimum threshold and the
-- movement written, null when nothing was left to use) or 'no_stock_row' (also for an unknown unit).
CREATE FUNCTION "consume_at_units"(
  p_tenant uuid, p_units uuid[], p_items uuid[], p_quantities int[], p_users uuid[]
) RETURNS TABLE (line int, outcome text, unit_quantity int, threshold int, movement_id uuid) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k int;
  r record;
  n int := coalesce(array_length(p_units, 1), 0);
  v_used int[] := array_fill(0, ARRAY[n]);
  v_ids uuid[] := array_fill(NULL::uuid, ARRAY[n]);
  v_after int[] := array_fill(NULL::int, ARRAY[n]);
  v_thresholds int[] := array_fill(NULL::int, ARRAY[n]);
  v_quantity int;
  v_threshold int;
BEGIN
  PERFORM check_stock_lines('consume_at_units', 'uses', p_units, p_items, p_quantities, p_users);
  FOR r IN SELECT DISTINCT x.id FROM unnest(p_units) AS x(id) ORDER BY x.id LOOP
    PERFORM 1 FROM units u WHERE u.tenant_id = p_tenant AND u.id = r.id FOR SHARE;
  END LOOP;
  FOR r IN SELECT DISTINCT x.unit_id, x.item_id FROM unnest(p_units, p_items) AS x(unit_id, item_id) ORDER BY x.unit_id, x.item_id LOOP
    PERFORM 1 FROM unit_inventory s WHERE s.tenant_id = p_tenant AND s.unit_id = r.unit_id AND s.item_id = r.item_id FOR UPDATE;
  END LOOP;
  FOR k IN 1 .. n LOOP
    -- The row as locked above; one opened meanwhile by another transaction is not taken out of
    -- the lock order (see transfer_to_units).
    SELECT s.quantity, s.item_threshold INTO v_quantity, v_threshold
    FROM unit_inventory s WHERE s.tenant_id = p_tenant AND s.unit_id = p_units[k] AND s.item_id = p_items[k]
    FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
      IF EXISTS (SELECT 1 FROM unit_inventory s WHERE s.tenant_id = p_tenant AND s.unit_id = p_units[k] AND s.item_id = p_items[k]) THEN
        RAISE EXCEPTION 'consume_at_units: the stock row of line % was opened meanwhile', k USING ERRCODE = '40001';
      END IF;
      CONTINUE;
    END IF;
    v_thresholds[k] := v_threshold;
    v_used[k] := least(p_quantities[k], v_quantity);
    v_after[k] := v_quantity;
    IF v_used[k] > 0 THEN
      UPDATE unit_inventory s SET quantity = s.quantity - v_used[k], updated_at = now()
      WHERE s.tenant_id = p_tenant AND s.unit_id = p_units[k] AND s.item_id = p_items[k]
      RETURNING s.quantity INTO v_quantity;
      v_after[k] := v_quantity;
      v_ids[k] := gen_random_uuid();
    END IF;
  END LOOP;
  INSERT INTO inventory_logs (id, tenant_id, item_id, quantity_change, source_type, unit_id, type, unit_cost, user_id)
  SELECT x.id, p_tenant, i.id, -x.used, 'unit', x.unit_id, 'consumption', i.count_cost, x.user_id
  FROM unnest(v_ids, v_used, p_units, p_items, p_users) AS x(id, used, unit_id, item_id, user_id)
  JOIN items i ON i.tenant_id = p_tenant AND i.id = x.item_id
  WHERE x.id IS NOT NULL
  ORDER BY x.unit_id, x.item_id;
  FOR k IN 1 .. n LOOP
    line := k;
    outcome := CASE WHEN v_after[k] IS NULL THEN 'no_stock_row' ELSE 'used' END;
    unit_quantity := v_after[k];
    threshold := v_thresholds[k];
    movement_id := v_ids[k];
    RETURN NEXT;
  END LOOP;
END
$$;
