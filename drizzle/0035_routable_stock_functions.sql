-- The stock calls of migrations 0027 and 0029 with their movements written by an INSERT … SELECT
-- Citus sends whole to the company's shard (docs/decisions/042-citus-distribution.md): ids made
-- before the statement (a transfer's two movements share one made per line), the company taken
-- from the items joined. Otherwise as before.
CREATE OR REPLACE FUNCTION public.transfer_to_units(p_tenant uuid, p_units uuid[], p_items uuid[], p_quantities integer[], p_users uuid[], p_type text, p_note text)
 RETURNS TABLE(line integer, outcome text, garage_quantity integer, unit_quantity integer, threshold integer, movement_id uuid)
 LANGUAGE plpgsql
AS $function$
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
  v_transfers uuid[] := array_fill(NULL::uuid, ARRAY[n]);
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
      v_transfers[r.k] := gen_random_uuid();
    END LOOP;
  END LOOP;
  -- Every value made above or read from the items joined: no volatile function, and the company
  -- taken from its items, so that Citus sends the statement whole to the company's shard. The
  -- garage side's id is made by the ledger's insert trigger (migration 0034).
  INSERT INTO inventory_logs (id, tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, transfer_id, unit_cost, user_id, note)
  SELECT CASE WHEN side.source_type = 'unit' THEN x.id END, i.tenant_id, i.id, side.sign * x.quantity, side.source_type,
         CASE WHEN side.source_type = 'unit' THEN x.unit_id END, CASE WHEN side.source_type = 'garage' THEN x.garage_id END,
         p_type, x.transfer_id, i.count_cost, x.user_id, p_note
  FROM unnest(v_ids, v_transfers, p_units, p_items, p_quantities, p_users, v_garages) AS x(id, transfer_id, unit_id, item_id, quantity, user_id, garage_id)
  JOIN items i ON i.tenant_id = p_tenant AND i.id = x.item_id
  CROSS JOIN (VALUES (-1, 'garage'), (1, 'unit')) AS side(sign, source_type)
  WHERE x.id IS NOT NULL;
  RETURN QUERY
    SELECT x.k::int,
           CASE WHEN NOT x.held THEN 'no_stock_row' WHEN x.garage_id IS NULL THEN 'no_garage'
                WHEN x.id IS NULL THEN 'garage_short' ELSE 'moved' END,
           x.garage_after, x.unit_after, x.threshold, x.id
    FROM unnest(v_held, v_garages, v_ids, v_garage_after, v_unit_after, v_thresholds)
      WITH ORDINALITY AS x(held, garage_id, id, garage_after, unit_after, threshold, k)
    ORDER BY x.k;
END
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.consume_at_units(p_tenant uuid, p_units uuid[], p_items uuid[], p_quantities integer[], p_users uuid[])
 RETURNS TABLE(line integer, outcome text, unit_quantity integer, threshold integer, movement_id uuid)
 LANGUAGE plpgsql
AS $function$
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
  SELECT x.id, i.tenant_id, i.id, -x.used, 'unit', x.unit_id, 'consumption', i.count_cost, x.user_id
  FROM unnest(v_ids, v_used, p_units, p_items, p_users) AS x(id, used, unit_id, item_id, user_id)
  JOIN items i ON i.tenant_id = p_tenant AND i.id = x.item_id
  WHERE x.id IS NOT NULL
  ORDER BY x.unit_id, x.item_id;
  RETURN QUERY
    SELECT x.k::int, CASE WHEN x.held THEN 'used' ELSE 'no_stock_row' END, x.after, x.threshold, x.id
    FROM unnest(v_held, v_after, v_thresholds, v_ids) WITH ORDINALITY AS x(held, after, threshold, id, k)
    ORDER BY x.k;
END
$function$;
