-- One transfer primitive (docs/decisions/020-transfer-primitive.md): lines moved from each unit's
-- garage to the unit, in order, by one call.
--
-- lock_transfer_rows is rewritten to lock key by key. Its set-based statements of 0012 were
-- planned once per connection for a tenant of average size: with that generic plan,
-- `u.id = ANY (p_units)` filtered every unit of the tenant (1,000 in the benchmark) instead of
-- looking the ids up, and planning them for each call instead cost more than the locks. One
-- statement per key has one good plan whatever the tenant's size: a lookup by the unique key. The
-- lock order is unchanged (docs/decisions/009-ledger-lock-order.md): the units FOR SHARE, then
-- their stock rows, then the garage rows they take from, each in key order.
CREATE OR REPLACE FUNCTION "lock_transfer_rows"(p_tenant uuid, p_units uuid[], p_items uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_garage uuid;
  v_units uuid[] := '{}';
  v_garages uuid[] := '{}';
BEGIN
  FOR r IN SELECT DISTINCT k.id FROM unnest(p_units) AS k(id) ORDER BY k.id LOOP
    SELECT u.garage_id INTO v_garage FROM units u WHERE u.tenant_id = p_tenant AND u.id = r.id FOR SHARE;
    IF v_garage IS NOT NULL THEN
      v_units := v_units || r.id;
      v_garages := v_garages || v_garage;
    END IF;
  END LOOP;
  FOR r IN SELECT DISTINCT k.unit_id, k.item_id FROM unnest(p_units, p_items) AS k(unit_id, item_id) ORDER BY k.unit_id, k.item_id LOOP
    PERFORM 1 FROM unit_inventory s WHERE s.tenant_id = p_tenant AND s.unit_id = r.unit_id AND s.item_id = r.item_id FOR UPDATE;
  END LOOP;
  -- The garage of each unit as read under its lock above: no table is read here.
  FOR r IN SELECT DISTINCT g.garage_id, k.item_id
           FROM unnest(p_units, p_items) AS k(unit_id, item_id)
           JOIN unnest(v_units, v_garages) AS g(unit_id, garage_id) ON g.unit_id = k.unit_id
           ORDER BY g.garage_id, k.item_id LOOP
    PERFORM 1 FROM garage_inventory g WHERE g.tenant_id = p_tenant AND g.garage_id = r.garage_id AND g.item_id = r.item_id FOR UPDATE;
  END LOOP;
END
$$;
--> statement-breakpoint
-- Moves p_quantities[k] of p_items[k] from the garage of p_units[k] to that unit, line by line in
-- order, after taking every lock first (lock_transfer_rows). A line moves only when the unit has a
-- stock row of the item, the unit has a garage and the garage holds at least the quantity;
-- otherwise it moves nothing and says why. Each moved line writes two ledger rows sharing a
-- transfer id: minus at the garage, plus at the unit. Quantities change by atomic SQL, guarded so
-- the garage never goes below zero. Runs with the caller's rights: row-level security applies.
-- Returns one row per line: its outcome ('moved', 'no_stock_row', 'no_garage', 'garage_short'),
-- and for 'moved' the quantities right after it and the item's minimum threshold.
CREATE FUNCTION "transfer_to_units"(
  p_tenant uuid, p_units uuid[], p_items uuid[], p_quantities int[], p_users uuid[], p_type text, p_note text
) RETURNS TABLE (line int, outcome text, garage_quantity int, unit_quantity int, threshold int) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k int;
  v_garage uuid;
  v_transfer uuid;
BEGIN
  IF array_length(p_items, 1) IS DISTINCT FROM array_length(p_units, 1)
     OR array_length(p_quantities, 1) IS DISTINCT FROM array_length(p_units, 1)
     OR array_length(p_users, 1) IS DISTINCT FROM array_length(p_units, 1) THEN
    RAISE EXCEPTION 'transfer_to_units: the line arrays differ in length' USING ERRCODE = '22023';
  END IF;
  FOR k IN 1 .. coalesce(array_length(p_units, 1), 0) LOOP
    IF p_quantities[k] IS NULL OR p_quantities[k] <= 0 THEN
      RAISE EXCEPTION 'transfer_to_units: line % moves % (must be positive)', k, p_quantities[k] USING ERRCODE = '22023';
    END IF;
  END LOOP;
  PERFORM lock_transfer_rows(p_tenant, p_units, p_items);
  FOR k IN 1 .. coalesce(array_length(p_units, 1), 0) LOOP
    line := k;
    garage_quantity := NULL;
    unit_quantity := NULL;
    threshold := NULL;
    SELECT u.garage_id, s.item_threshold INTO v_garage, threshold
    FROM unit_inventory s JOIN units u ON u.tenant_id = s.tenant_id AND u.id = s.unit_id
    WHERE s.tenant_id = p_tenant AND s.unit_id = p_units[k] AND s.item_id = p_items[k];
    IF NOT FOUND THEN
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
        INSERT INTO inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, transfer_id, unit_cost, user_id, note)
        SELECT p_tenant, i.id, side.change, side.source_type, side.unit_id, side.garage_id, p_type, v_transfer, i.count_cost, p_users[k], p_note
        FROM items i
        CROSS JOIN (VALUES (-p_quantities[k], 'garage', NULL::uuid, v_garage),
                           (p_quantities[k], 'unit', p_units[k], NULL::uuid)) AS side(change, source_type, unit_id, garage_id)
        WHERE i.tenant_id = p_tenant AND i.id = p_items[k];
        outcome := 'moved';
      END IF;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;
