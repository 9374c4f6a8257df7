-- transfer_to_units as in 0027, but for how a round's statement finds what it took: the rows taken
-- from the garages carry their line's unit, item and quantity to the UPDATE of the units, which
-- returns each line's quantities after it. In 0027 the round joined its lines to what was taken
-- and brought by their line number; planned as nested loops over the CTEs (a function's array
-- gives the planner no row count), that join compared every line with every other: 6,162 rows
-- compared for a round of 79 lines, 4.8 of the statement's 6.7 ms.
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
        RETURNING m.k, m.unit_id, m.item_id, m.quantity, g.quantity AS garage_after
      )
      UPDATE unit_inventory s SET quantity = s.quantity + t.quantity, updated_at = now()
      FROM taken t
      WHERE s.tenant_id = p_tenant AND s.unit_id = t.unit_id AND s.item_id = t.item_id
      RETURNING t.k, t.garage_after, s.quantity AS unit_after
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
