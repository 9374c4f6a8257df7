-- Below minimum (docs/product.md "Stock movements and statuses", "Restock to minimum"; "Forecast",
-- below minimum), its one SQL home: server/modules/stock/rules.ts `belowMinimumSql` calls it. A
-- stock of `quantity` pieces is below the item's `minimum` threshold when it holds less: narrower
-- than stock_in_alert (migration 0015), which also counts a row at exactly its minimum. In double
-- precision so that whole stock columns (integer converts to it implicitly and exactly) and the
-- forecast's projected, fractional stock call the same function, which compares as JavaScript
-- numbers do. A plain SQL expression that PostgreSQL inlines into the calling query, like
-- stock_status. The TypeScript form is `isBelowMinimum` in common/contracts/stock.ts
-- (server/modules/stock/rules.test.ts checks they agree).
CREATE FUNCTION "stock_below_minimum"(quantity double precision, minimum double precision) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN quantity < minimum;
