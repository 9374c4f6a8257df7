-- The locks a transfer from garages to units takes before it writes (docs/decisions/009-ledger-lock-order.md):
-- the units FOR SHARE (their garage cannot change meanwhile), then their stock rows, then the
-- garage stock rows the units take from, each in key order. One call instead of three
-- statements: the plus button's batches are often small, and three round trips per batch cost
-- about a third of its throughput. Runs with the caller's rights, so row-level security applies.
CREATE FUNCTION "lock_transfer_rows"(p_tenant uuid, p_units uuid[], p_items uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM units u
  WHERE u.tenant_id = p_tenant AND u.id = ANY (p_units)
  ORDER BY u.id
  FOR SHARE;
  PERFORM 1 FROM unit_inventory s
  WHERE s.tenant_id = p_tenant AND (s.unit_id, s.item_id) IN (SELECT * FROM unnest(p_units, p_items))
  ORDER BY s.unit_id, s.item_id
  FOR UPDATE;
  PERFORM 1 FROM garage_inventory g
  JOIN units u ON u.tenant_id = g.tenant_id AND u.garage_id = g.garage_id
  WHERE g.tenant_id = p_tenant AND (u.id, g.item_id) IN (SELECT * FROM unnest(p_units, p_items))
  ORDER BY g.garage_id, g.item_id
  FOR UPDATE OF g;
END
$$;
