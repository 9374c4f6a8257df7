-- A stock row copies its item's minimum threshold on insert, and a foreign key on
-- (item, threshold) keeps the copy equal (0004). Read without a lock, the copy could be taken
-- from a threshold that a concurrent item update was replacing: the update's ON UPDATE CASCADE
-- cannot see the uncommitted new row, and the insert's foreign-key check then found no item with
-- the old threshold (a foreign-key violation). FOR KEY SHARE waits for such an update and reads
-- the threshold it committed (docs/decisions/009-ledger-lock-order.md).
CREATE OR REPLACE FUNCTION "stock_row_item_threshold"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT i.minimum_threshold INTO NEW.item_threshold FROM items i WHERE i.tenant_id = NEW.tenant_id AND i.id = NEW.item_id FOR KEY SHARE;
  NEW.item_threshold := coalesce(NEW.item_threshold, 0);
  RETURN NEW;
END
$$;
