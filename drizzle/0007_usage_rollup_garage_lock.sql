-- Usage written by a statement counts for its units' current garages. A garage change moves the
-- history it can see (usage_rollup_follow_unit), so usage written by a transaction that read the
-- unit's old garage and committed after the change stayed with the old garage. The ledger trigger
-- now takes a share lock on the units concerned, in key order, before it reads their garages: it
-- waits for a garage change in progress (and then sees the new garage), and a garage change waits
-- for the transactions whose usage it would otherwise miss.
CREATE OR REPLACE FUNCTION "usage_rollup_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int := TG_ARGV[0]::int;
BEGIN
  -- Most statements (transfers, deliveries) write no usage: one cheap look, then done.
  IF NOT EXISTS (SELECT 1 FROM changed_rows WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')) THEN
    RETURN NULL;
  END IF;
  IF sign > 0 THEN
    INSERT INTO unit_usage_daily AS d (tenant_id, day, unit_id, used, cost_cents)
    SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, unit_id, sum(-quantity_change), sum(-quantity_change * unit_cost * 100)::bigint
    FROM changed_rows
    WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, day, unit_id) DO UPDATE SET used = d.used + excluded.used, cost_cents = d.cost_cents + excluded.cost_cents;
  ELSE
    UPDATE unit_usage_daily d SET used = d.used - c.used, cost_cents = d.cost_cents - c.cost_cents
    FROM (SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date AS day, unit_id, sum(-quantity_change) AS used,
                 sum(-quantity_change * unit_cost * 100)::bigint AS cost_cents
          FROM changed_rows
          WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
          GROUP BY 1, 2, 3) c
    WHERE d.tenant_id = c.tenant_id AND d.day = c.day AND d.unit_id = c.unit_id;
  END IF;
  -- The units' garages must not change until this transaction ends: a garage change moves the
  -- history it can see, so usage written meanwhile would stay with the old garage. Waiting for
  -- a change in progress also lets the next statement see the unit's new garage.
  PERFORM 1 FROM units u
  WHERE (u.tenant_id, u.id) IN (SELECT tenant_id, unit_id FROM changed_rows WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count'))
  ORDER BY u.tenant_id, u.id
  FOR SHARE OF u;
  PERFORM garage_usage_change(sign, array_agg(tenant_id), array_agg(day), array_agg(garage_id), array_agg(item_id), array_agg(used))
  FROM (SELECT l.tenant_id, (l.created_at AT TIME ZONE 'UTC')::date AS day, u.garage_id, l.item_id, sum(-l.quantity_change)::int AS used
        FROM changed_rows l JOIN units u ON u.tenant_id = l.tenant_id AND u.id = l.unit_id
        WHERE l.source_type = 'unit' AND l.quantity_change < 0 AND l.type IN ('consumption', 'count') AND u.garage_id IS NOT NULL
        GROUP BY 1, 2, 3, 4) g;
  RETURN NULL;
END
$$;
