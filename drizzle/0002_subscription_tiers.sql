-- Plans (docs/product.md "Plans, trial and limits"; docs/decisions/003-trial-plan.md). Prices in dollars;
-- Enterprise is priced per unit. Yearly prices are 10-11 % below twelve months:
-- Starter 310 vs 348 (10.9 %), Professional 850 vs 948 (10.3 %), Enterprise 43 vs 48 (10.4 %).
-- A limit of 999999 means unlimited. Stripe price ids come from configuration.
INSERT INTO subscription_tiers (name, description, price, yearly_price, per_unit, max_units, max_items, max_garages, max_users, features, sort_order) VALUES
  ('Starter', 'For hosts with a handful of properties', 29.00, 310.00, false, 10, 50, 2, 2,
   '{"cost_reports": true, "ai_reports": false, "ai_scanner": false, "listing_import": false, "priority_support": false}', 1),
  ('Professional', 'For growing operators and cleaning teams', 79.00, 850.00, false, 50, 250, 5, 10,
   '{"cost_reports": true, "ai_reports": true, "ai_scanner": true, "listing_import": true, "priority_support": false}', 2),
  ('Enterprise', 'For large portfolios, priced per property', 4.00, 43.00, true, 999999, 999999, 999999, 50,
   '{"cost_reports": true, "ai_reports": true, "ai_scanner": true, "listing_import": true, "priority_support": true}', 3)
ON CONFLICT (name) DO NOTHING;
