-- People's names leave the database's queries of a company (docs/decisions/042-citus-distribution.md):
-- the view member_directory read users and sessions with its owner's rights, which Citus does not
-- give a view's query on the workers. The Dashboard's activity now names each row's author by id,
-- with whether they are still a member; the server reads the names with its own login
-- (server/modules/auth/people.ts).
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
      SELECT x.id, x.item_id, x.quantity_change, x.source_type, x.unit_id, x.garage_id, x.user_id, x.created_at
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
                 'created_at', to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                 ORDER BY l.created_at DESC, l.id)
        FROM activity l), '[]'::json))
  );
END
$function$;
--> statement-breakpoint
DROP VIEW "member_directory";
