/**
 * The examples of the API document (issue 31): one request body and one 2xx answer per operation,
 * keyed by operationId, which api-document.ts's `transformObject` sets as the `example` of the
 * operation's `application/json` media type. They describe one demo company, "Seaside Stays", with
 * the same ids, names and quantities everywhere (the webhook events' examples in api-webhooks.ts
 * use the same records): properties "Seaside Loft" and "Harbor View Cottage", the storage "Main
 * Storage", items "Bath Towel", "Coffee Pods" and "Toilet Paper"; dates around 2026-12-03 ("today"),
 * money in dollars (common/contracts/billing.ts, `count_cost`).
 *
 * Every example must validate against its schema in the document; server/lib/api-examples.test.ts
 * checks that, and that every operation with a JSON body or a 2xx JSON answer has one, except
 * those {@link withoutExample} lists with the reason.
 */

/** "Today" of the examples, and timestamps on it (ISO 8601 UTC). */
const TODAY = '2026-12-03';
const MORNING = '2026-12-03T07:00:00.000Z';
const NOW = '2026-12-03T09:15:00.000Z';
const LAST_WEEK = '2026-11-26T14:40:00.000Z';

/** The demo company and its people. */
const demoCompany = { id: 'a4c2e8f1-7b3d-4e9a-8f21-5c6d7e8f9a0b', name: 'Seaside Stays' } as const;
export const demoOwner = { id: 'Vh3kQ9sT2bXw7LmN4pRz', name: 'Maria Lopez', email: 'maria@seasidestays.com' } as const;
const member = { id: 'Jd8fR2nW6yKc1VqB5tHs', name: 'Sam Carter', email: 'sam@seasidestays.com' } as const;

/** The demo records: properties, the storage and items (ids are random version-4 uuids). */
export const demoProperty = {
  id: '0b9f8a52-3c1e-4f7a-9d2b-6e5c4a3b2f10',
  name: 'Seaside Loft',
  address: '4 Beach Road, Port Haven',
} as const;
const cottage = { id: '5f4e3d2c-1b0a-4987-b6a5-4c3b2a1f0e9d', name: 'Harbor View Cottage', address: '18 Harbor Lane, Port Haven' } as const;
export const demoStorage = { id: '6d1c2b3a-4e5f-4a7b-8c9d-0e1f2a3b4c5d', name: 'Main Storage', address: '12 Dock Street, Port Haven' } as const;
export const demoTowel = { id: '3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b', name: 'Bath Towel', category: 'Linens' } as const;
const coffee = { id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', name: 'Coffee Pods', category: 'Kitchen' } as const;
const paper = { id: '9c8b7a6f-5e4d-4c3b-a2a1-0f9e8d7c6b5a', name: 'Toilet Paper', category: 'Bathroom' } as const;

/** Stock changes (ledger movements) the examples name. */
const movements = ['b3c4d5e6-f7a8-4b9c-8d0e-1f2a3b4c5d6e', 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f'] as const;

/** An item as listed (GET /api/items): minimum and cost per piece in dollars. */
const towelItem = {
  id: demoTowel.id,
  name: demoTowel.name,
  category: demoTowel.category,
  minimum_threshold: 4,
  count_cost: 8.5,
  usage_per_stay_default: 2,
  service_level: null,
};
const itemList = [
  towelItem,
  { id: coffee.id, name: coffee.name, category: coffee.category, minimum_threshold: 10, count_cost: 0.45, usage_per_stay_default: null, service_level: null },
  { id: paper.id, name: paper.name, category: paper.category, minimum_threshold: 6, count_cost: 0.9, usage_per_stay_default: 3, service_level: 98 },
];

/** Main Storage's stock. */
const storageStock = [
  { item_id: demoTowel.id, item_name: demoTowel.name, quantity: 36 },
  { item_id: coffee.id, item_name: coffee.name, quantity: 120 },
  { item_id: paper.id, item_name: paper.name, quantity: 48 },
];
const storage = { id: demoStorage.id, name: demoStorage.name, address: demoStorage.address, inventory: storageStock };

/** Seaside Loft with its stock rows: towels low, coffee pods sufficient, toilet paper critical. */
const loft = {
  id: demoProperty.id,
  name: demoProperty.name,
  address: demoProperty.address,
  garage_id: demoStorage.id,
  garage: demoStorage,
  external_id: '184520',
  inventory: [
    { id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b', item_id: demoTowel.id, item_name: demoTowel.name, quantity: 3, minimum_threshold: 4, status: 'low' },
    { id: 'f2a3b4c5-d6e7-4f8a-9b0c-1d2e3f4a5b6c', item_id: coffee.id, item_name: coffee.name, quantity: 24, minimum_threshold: 10, status: 'sufficient' },
    { id: 'a3b4c5d6-e7f8-4a9b-8c1d-2e3f4a5b6c7d', item_id: paper.id, item_name: paper.name, quantity: 0, minimum_threshold: 6, status: 'critical' },
  ],
};

/** A unit stock change's answer: the loft's towels after 5 came from Main Storage. */
const stockChange = { unit_quantity: 8, garage_quantity: 31, status: 'sufficient', movement_ids: [movements[0]] };

/** What a restock of Seaside Loft to its minimums moved from Main Storage. */
const moved = [
  { item_id: demoTowel.id, item_name: demoTowel.name, quantity: 1 },
  { item_id: paper.id, item_name: paper.name, quantity: 6 },
];

/**
 * Onboarding: the storage starts without toilet paper, so filling the two new properties to their
 * minimums moves towels and coffee pods and leaves toilet paper short.
 */
const onboardingStock = storageStock.filter((line) => line.item_id !== paper.id).map(({ item_id, quantity }) => ({ item_id, quantity }));
const onboardingFill = {
  moved: [
    { item_id: demoTowel.id, item_name: demoTowel.name, quantity: 8 },
    { item_id: coffee.id, item_name: coffee.name, quantity: 20 },
  ],
  short: [{ item_id: paper.id, item_name: paper.name, missing: 12 }],
};

const count = {
  lines: [
    { item_id: demoTowel.id, expected: 40, counted: 36 },
    { item_id: coffee.id, expected: 120, counted: 120 },
  ],
};
const counted = { changed: [{ item_id: demoTowel.id, item_name: demoTowel.name, previous: 40, quantity: 36 }] };

const tiers = {
  starter: 'e6f7a8b9-c0d1-4e2f-9a3b-4c5d6e7f8091',
  professional: 'd5e6f7a8-b9c0-4d1e-8f2a-3b4c5d6e7f80',
  enterprise: 'f7a8b9c0-d1e2-4f3a-8b4c-5d6e7f809102',
} as const;

const stay = { id: '48213377', arrival_date: '2026-12-04', departure_date: '2026-12-07', guests: 4, nights: 3 } as const;

/** A shortfall of the loft's towels at the next arrival, as the forecasts list it. */
const towelForecast = {
  item_id: demoTowel.id,
  item_name: demoTowel.name,
  category: demoTowel.category,
  quantity: 3,
  minimum_threshold: 4,
  // 0.2 × 4.5 + 0.8 × 0.3 × 4 guests × 3 nights (the rate in getUnitForecast), to one decimal.
  expected_use: 3.8,
  shortfall: { stay_id: stay.id, arrival_date: stay.arrival_date, kind: 'runs_out', projected: -0.8 },
  bring: 5,
};

const calendar = {
  unit_id: demoProperty.id,
  typical_guests: 4,
  links: [
    {
      id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5e',
      url: 'https://www.airbnb.com/calendar/ical/52719034.ics?s=8f3e2a',
      synced_at: NOW,
      error: null,
      upcoming_stays: 3,
    },
  ],
};

const invitation = {
  id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6f',
  email: 'alex@seasidestays.com',
  role: 'member',
  expires_at: '2026-12-10T09:15:00.000Z',
  invited_by: demoOwner.name,
};
/** An invitation link's token: 43 base64url characters. */
const invitationToken = { token: 'q7Lk2vXp9RtY4wNb8ZcH1sDf6GjM3aQe5UoI0nBv-_w' };

const apiKey = {
  // A key's id has version digit 8 (server/modules/api-keys/key.ts `newKeyId`).
  id: '3c4d5e6f-7a8b-8c9d-8e0f-1a2b3c4d5e6f',
  name: 'Spreadsheet',
  role: 'read_only',
  prefix: 'imk_R7t2Qx',
  created_by: demoOwner.email,
  created_at: NOW,
  last_used_at: null,
  revoked_at: null,
};

const endpoint = {
  id: '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
  url: 'https://ops.seasidestays.com/hooks/inventory',
  description: 'Restock board',
  events: ['stock.low', 'stock.critical', 'pick_list.delivered'],
  status: 'enabled',
  disabled_reason: null,
  failing_since: null,
  created_at: LAST_WEEK,
};
const delivery = {
  id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  event_id: 'msg_2ZtQm8Kp4VxR7nLc',
  event_type: 'stock.low',
  status: 'succeeded',
  attempts: 1,
  last_status_code: 200,
  last_duration_ms: 184,
  last_error: null,
  next_attempt_at: null,
  created_at: MORNING,
  last_attempt_at: MORNING,
};

const webhookCredentials = { url: 'https://app.example.com/api/hostaway/webhook', login: 'hostaway-8f3e2a' };

/** Request body examples, by operationId. */
export const requestExamples: Record<string, unknown> = {
  createCompany: { company_name: demoCompany.name },
  saveOnboardingItems: {
    items: itemList.map(({ name, category, minimum_threshold, count_cost }) => ({ name, category, minimum_threshold, count_cost })),
  },
  saveOnboardingGarage: {
    name: demoStorage.name,
    address: demoStorage.address,
    stock: onboardingStock,
  },
  saveOnboardingUnits: {
    units: [demoProperty, cottage].map(({ name, address }) => ({ name, address })),
    fill_to_minimum: true,
  },
  startCheckout: { tier_id: tiers.professional, interval: 'month' },
  createItem: { name: demoTowel.name, category: demoTowel.category, minimum_threshold: 4, count_cost: 8.5, usage_per_stay_default: 2 },
  updateItem: { name: demoTowel.name, category: demoTowel.category, minimum_threshold: 6, count_cost: 8.5, usage_per_stay_default: 2, service_level: 95 },
  createGarage: { name: demoStorage.name, address: demoStorage.address, inventory: [{ item_id: demoTowel.id, quantity: 36 }] },
  updateGarage: { name: demoStorage.name, address: demoStorage.address, lead_time_days: 5 },
  replaceGarageInventory: { inventory: storageStock.map(({ item_id, quantity }) => ({ item_id, quantity })) },
  countGarage: count,
  createUnit: {
    name: demoProperty.name,
    address: demoProperty.address,
    garage_id: demoStorage.id,
    inventory: [{ item_id: demoTowel.id, quantity: 6 }],
  },
  updateUnit: { name: demoProperty.name, address: demoProperty.address, garage_id: demoStorage.id },
  addUnitStock: { item_id: demoTowel.id, quantity: 5 },
  consumeUnitStock: { quantity: 2 },
  transferUnitStock: { quantity: 5 },
  restockUnitToMinimum: { item_id: demoTowel.id },
  reverseUnitStockChanges: { movement_ids: [movements[0]] },
  countUnit: { lines: [{ item_id: demoTowel.id, expected: 3, counted: 2 }] },
  setServiceLevel: { service_level: 95 },
  deliverPickList: { lines: [{ item_id: demoTowel.id, quantity: 5 }, { item_id: paper.id, quantity: 12 }] },
  connectHostaway: { client_id: '81234', client_secret: 'f3a9c1e7b2d84650a1c9e3f7b5d2a8c4' },
  importHostawayListings: {
    garage_id: demoStorage.id,
    listings: [{ external_id: '184521', name: cottage.name, address: cottage.address }],
  },
  // What Hostaway's unified webhook sends; only the reservation's id is read (listings-import/webhook.ts).
  hostawayWebhook: { object: 'reservation', event: 'reservation.updated', accountId: 81234, data: { id: 48213377, listingMapId: 184520, status: 'new' } },
  setDailyEmail: { enabled: true },
  setCompanyTimeZone: { time_zone: 'America/New_York' },
  // `<tenant id>.<user id>.<signature>` (server/modules/daily-email/unsubscribe-token.ts).
  unsubscribeDailyEmail: { token: `${demoCompany.id}.${member.id}.Xk4rT9wQ2mLp7vBn3cHs8dFg1jKz6yNa5eUo0iWq-_R` },
  saveUnitTypicalGuests: { typical_guests: 4 },
  addUnitCalendarLink: { url: calendar.links[0]!.url },
  changeRole: { role: 'admin' },
  invite: { email: invitation.email, role: 'member' },
  previewInvitation: invitationToken,
  acceptInvitation: invitationToken,
  joinByInvitation: { ...invitationToken, name: 'Alex Kim', password: 'tide-pool-lantern-42' },
  createApiKey: { name: apiKey.name, role: 'read_only' },
  createWebhookEndpoint: { url: endpoint.url, description: endpoint.description, events: endpoint.events },
  updateWebhookEndpoint: { events: [...endpoint.events, 'forecast.short'], enabled: true },
  askReportAssistant: { type: 'reorder', days: 30, limit: 50 },
  applyScan: { mode: 'restock', items: [{ item_id: demoTowel.id, quantity: 5 }, { item_id: coffee.id, quantity: 10 }] },
};

/** 2xx JSON answer examples, by operationId. */
export const answerExamples: Record<string, unknown> = {
  health: { ok: true },
  ready: { ok: true, migration: '0045_webhook-stock-events' },
  getMe: { user: { id: demoOwner.id, email: demoOwner.email }, tenant: demoCompany, role: 'owner' },
  getOnboardingStatus: { needs_onboarding: true, current_step: 'garage' },
  getOnboardingSetup: {
    items: itemList,
    garage: { id: demoStorage.id, name: demoStorage.name, address: demoStorage.address, stock: onboardingStock },
  },
  createCompany: { tenant_id: demoCompany.id },
  saveOnboardingItems: { count: itemList.length },
  saveOnboardingGarage: { id: demoStorage.id },
  saveOnboardingUnits: { count: 2, ...onboardingFill },
  getSubscriptionStatus: { subscription_status: 'inactive', trial_status: 'active', tier_name: null, days_remaining: 9 },
  listTiers: [
    {
      id: tiers.starter,
      name: 'Starter',
      description: 'For hosts with a handful of properties',
      price: 29,
      yearly_price: 310,
      per_unit: false,
      max_units: 10,
      max_items: 50,
      max_garages: 2,
      max_users: 2,
      features: { cost_reports: true, ai_reports: false, ai_scanner: false, listing_import: false, priority_support: false },
    },
    {
      id: tiers.professional,
      name: 'Professional',
      description: 'For growing operators and cleaning teams',
      price: 79,
      yearly_price: 850,
      per_unit: false,
      max_units: 50,
      max_items: 250,
      max_garages: 5,
      max_users: 10,
      features: { cost_reports: true, ai_reports: true, ai_scanner: true, listing_import: true, priority_support: false },
    },
    {
      id: tiers.enterprise,
      name: 'Enterprise',
      description: 'For large portfolios, priced per property',
      price: 4,
      yearly_price: 43,
      per_unit: true,
      max_units: 999999,
      max_items: 999999,
      max_garages: 999999,
      max_users: 50,
      features: { cost_reports: true, ai_reports: true, ai_scanner: true, listing_import: true, priority_support: true },
    },
  ],
  getUsage: {
    tier_name: 'Professional',
    limits: { units: 50, items: 250, garages: 5, users: 10 },
    used: { units: 2, items: 3, garages: 1, users: 2 },
    remaining: { units: 48, items: 247, garages: 4, users: 8 },
  },
  startCheckout: { url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4e5F6g7H8' },
  openBillingPortal: { url: 'https://billing.stripe.com/p/session/test_YWNjdF8xTjJ' },
  receiveBillingEvent: { received: true, outcome: 'applied' },
  getDashboard: {
    stats: { total_units: 2, total_items: 3, low_stock_items: 1, critical_items: 1 },
    unit_alerts: [
      { id: '6f7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c', item_name: paper.name, alert_type: 'critical', location_name: demoProperty.name, location_type: 'unit', created_at: NOW },
      { id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', item_name: demoTowel.name, alert_type: 'low', location_name: demoProperty.name, location_type: 'unit', created_at: MORNING },
    ],
    garage_alerts: [],
    recent_activity: [
      { id: movements[0], item_name: demoTowel.name, quantity_change: -2, source_name: demoProperty.name, by: member.name, created_at: NOW },
      { id: movements[1], item_name: coffee.name, quantity_change: 10, source_name: demoStorage.name, by: demoOwner.name, created_at: MORNING },
    ],
  },
  listItems: itemList,
  createItem: towelItem,
  updateItem: { ...towelItem, minimum_threshold: 6, service_level: 95 },
  listGarages: [storage],
  createGarage: { ...storage, inventory: [storageStock[0]] },
  updateGarage: storage,
  replaceGarageInventory: storage,
  countGarage: counted,
  listUnits: [loft, { ...cottage, garage_id: demoStorage.id, garage: demoStorage, external_id: null, inventory: [] }],
  createUnit: {
    ...loft,
    external_id: null,
    inventory: [{ ...loft.inventory[0]!, quantity: 6, status: 'sufficient' }],
  },
  getUnit: loft,
  updateUnit: loft,
  addUnitStock: stockChange,
  consumeUnitStock: { unit_quantity: 1, garage_quantity: null, status: 'low', movement_ids: [movements[0]] },
  transferUnitStock: stockChange,
  restockUnitToMinimum: { moved, short: [], movement_ids: movements },
  removeUnitStock: { movement_ids: [movements[1]] },
  reverseUnitStockChanges: loft,
  countUnit: { changed: [{ item_id: demoTowel.id, item_name: demoTowel.name, previous: 3, quantity: 2 }] },
  getCostReport: {
    start: '2026-11-04',
    end: TODAY,
    total_cost: 412.35,
    total_items: 318,
    trend: [
      { date: '2026-12-02', total_cost: 18.4, total_items: 14 },
      { date: TODAY, total_cost: 21.25, total_items: 11 },
    ],
    units: [
      { unit_id: demoProperty.id, unit_name: demoProperty.name, period_cost: 256.1, week_cost: 61.5, month_cost: 256.1 },
      { unit_id: cottage.id, unit_name: cottage.name, period_cost: 156.25, week_cost: 38.9, month_cost: 156.25 },
    ],
  },
  getStatusReport: {
    units: [
      { id: demoProperty.id, name: demoProperty.name, sufficient: 1, low: 1, critical: 1 },
      { id: cottage.id, name: cottage.name, sufficient: 3, low: 0, critical: 0 },
    ],
    garages: [{ id: demoStorage.id, name: demoStorage.name, sufficient: 3, low: 0, critical: 0 }],
  },
  getForecast: {
    horizon_days: 7,
    today: TODAY,
    properties_short: 1,
    properties_running_out: 1,
    properties: [
      {
        unit_id: demoProperty.id,
        unit_name: demoProperty.name,
        garage_id: demoStorage.id,
        garage_name: demoStorage.name,
        first_shortfall_date: stay.arrival_date,
        stays: 2,
        past_stays: 38,
        items: [towelForecast],
      },
    ],
    properties_with_stays: 2,
    rates_learned_at: MORNING,
    service_level: 95,
  },
  getForecastSummary: {
    horizon_days: 7,
    properties_short: 1,
    first: [
      {
        unit_id: demoProperty.id,
        unit_name: demoProperty.name,
        arrival_date: stay.arrival_date,
        kind: 'runs_out',
        item_names: [demoTowel.name],
        items_short: 1,
      },
    ],
  },
  getUnitForecast: {
    unit_id: demoProperty.id,
    horizon_days: 7,
    today: TODAY,
    stays: [{ id: stay.id, source: 'hostaway', arrival_date: stay.arrival_date, departure_date: stay.departure_date, guests: stay.guests, nights: stay.nights, under_way: false }],
    items: [
      {
        ...towelForecast,
        rate: { item_id: demoTowel.id, per_stay: 4.5, per_guest_night: 0.3, fixed_share: 0.2, stays: 38, dispersion: 0.8, basis: 'property' },
      },
    ],
    past_stays: 38,
  },
  setServiceLevel: { service_level: 95 },
  getGaragePickList: {
    garage_id: demoStorage.id,
    garage_name: demoStorage.name,
    date: TODAY,
    horizon_days: 7,
    garage_stock: storageStock.map(({ item_id, quantity }) => ({ item_id, quantity })),
    items: [demoTowel, paper].map(({ id, name, category }) => ({ item_id: id, item_name: name, category })),
    properties: [
      {
        unit_id: demoProperty.id,
        unit_name: demoProperty.name,
        address: demoProperty.address,
        arrivals: [{ stay_id: stay.id, arrival_date: stay.arrival_date, guests: stay.guests, nights: stay.nights }],
        lines: [
          { item_id: demoTowel.id, quantity: 3, bring: 5 },
          { item_id: paper.id, quantity: 0, bring: 12 },
        ],
        service: { level: 95, pieces: 17, chance: 0.96, expected_pieces: 14, expected_chance: 0.81 },
      },
    ],
  },
  deliverPickList: {
    movement_ids: movements,
    delivered: [
      { item_id: demoTowel.id, quantity: 5 },
      { item_id: paper.id, quantity: 12 },
    ],
  },
  getGarageOrderForecast: {
    garage_id: demoStorage.id,
    garage_name: demoStorage.name,
    lead_time_days: 5,
    today: TODAY,
    items: [
      { item_id: paper.id, item_name: paper.name, category: paper.category, garage_quantity: 48, minimum_threshold: 6, needed: 60, order: 18 },
      { item_id: demoTowel.id, item_name: demoTowel.name, category: demoTowel.category, garage_quantity: 36, minimum_threshold: 4, needed: 14, order: 0 },
    ],
  },
  getHostawayConnection: { connected: true, account_id: '81234', last_synced_at: NOW, last_sync_error: null, webhook: webhookCredentials },
  listHostawayListings: [
    { external_id: '184520', name: demoProperty.name, address: demoProperty.address, imported: true },
    { external_id: '184521', name: cottage.name, address: cottage.address, imported: false },
  ],
  importHostawayListings: { imported: 1, skipped: 0 },
  generateHostawayWebhookCredentials: { ...webhookCredentials, password: 'Zq8vN3rT6wXy1BkL4mPs7dHf' },
  hostawayWebhook: { received: true },
  listUpcomingStays: [
    {
      id: stay.id,
      source: 'hostaway',
      arrival_date: stay.arrival_date,
      departure_date: stay.departure_date,
      nights: stay.nights,
      guests: stay.guests,
      adults: 2,
      children: 2,
      status: 'new',
      channel: 'Airbnb',
      also_listed_by: [{ channel: null }],
    },
  ],
  getDailyEmail: { enabled: true, time_zone: 'America/New_York', send_hour: 7 },
  setDailyEmail: { enabled: true, time_zone: 'America/New_York', send_hour: 7 },
  setCompanyTimeZone: { time_zone: 'America/New_York' },
  unsubscribeDailyEmail: { email: member.email, company_name: demoCompany.name },
  getUnitCalendar: calendar,
  saveUnitTypicalGuests: calendar,
  addUnitCalendarLink: { ...calendar, links: calendar.links.map((link) => ({ ...link, synced_at: null, upcoming_stays: 0 })) },
  refreshUnitCalendar: calendar,
  listTeam: {
    members: [
      { user_id: demoOwner.id, email: demoOwner.email, name: demoOwner.name, role: 'owner', joined_at: '2026-09-14T10:02:00.000Z', last_active_at: NOW },
      { user_id: member.id, email: member.email, name: member.name, role: 'member', joined_at: '2026-10-01T16:30:00.000Z', last_active_at: LAST_WEEK },
    ],
    invitations: [invitation],
  },
  invite: invitation,
  resendInvitation: invitation,
  previewInvitation: { company_name: demoCompany.name, inviter: demoOwner.name, email: invitation.email, role: 'member', has_account: false },
  acceptInvitation: { company_name: demoCompany.name },
  joinByInvitation: { company_name: demoCompany.name },
  listApiKeys: { keys: [apiKey] },
  // The whole key, shown this once: `imk_` and 32 random bytes in base64url.
  createApiKey: { ...apiKey, key: `${apiKey.prefix}p4Hs9LwQe2ZvK7nBc3XyT8mRfA1sD5gJ0kW6u` },
  listWebhookEndpoints: { endpoints: [endpoint] },
  createWebhookEndpoint: { endpoint: { ...endpoint, created_at: NOW }, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  updateWebhookEndpoint: { endpoint: { ...endpoint, events: [...endpoint.events, 'forecast.short'] } },
  listWebhookDeliveries: {
    deliveries: [
      delivery,
      {
        ...delivery,
        id: '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e',
        event_id: 'msg_2ZtPw3Hn8QkV1mXa',
        event_type: 'pick_list.delivered',
        status: 'pending',
        attempts: 2,
        last_status_code: 503,
        last_duration_ms: 2210,
        last_error: 'HTTP 503',
        next_attempt_at: '2026-12-03T09:20:00.000Z',
      },
    ],
  },
  resendWebhookDelivery: { delivery: { ...delivery, status: 'pending', attempts: 0, last_status_code: null, last_duration_ms: null, next_attempt_at: NOW, last_attempt_at: null } },
  sendWebhookTestEvent: { delivery: { ...delivery, event_id: 'msg_2ZtRb6Tc1NwY9pEd', created_at: NOW, last_attempt_at: NOW } },
  askReportAssistant: {
    type: 'reorder',
    text: 'Order 18 Toilet Paper for Main Storage: the next 5 days of stays need 60 and it holds 48.',
    csv: 'item,category,in_storage,needed,order\nToilet Paper,Bathroom,48,60,18\n',
    records: 1,
    ai_narrative: false,
  },
  getScannerStatus: { configured: true, max_photo_bytes: 10485760 },
  scanUnitPhoto: {
    id: '9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
    unit_id: demoProperty.id,
    garage_id: demoStorage.id,
    garage: { id: demoStorage.id, name: demoStorage.name },
    photo_url: '/api/scans/9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f/photo',
    items: [
      { item_id: demoTowel.id, name: demoTowel.name, quantity: 5, confidence: 0.93, second_look: false, available_in_garage: 36 },
      { item_id: coffee.id, name: coffee.name, quantity: 10, confidence: 0.64, second_look: true, available_in_garage: 120 },
    ],
    created_at: NOW,
  },
  applyScan: {
    scan_id: '9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
    mode: 'restock',
    applied: [
      { item_id: demoTowel.id, item_name: demoTowel.name, quantity: 5, unit_quantity: 8, garage_quantity: 31 },
      { item_id: coffee.id, item_name: coffee.name, quantity: 10, unit_quantity: 34, garage_quantity: 110 },
    ],
  },
};

/**
 * The operations whose 2xx JSON answer has no example, and why: the document puts the reason in
 * the answer's description.
 */
export const withoutExample: Record<string, string> = {
  authGet: 'better-auth’s answer: any JSON, which depends on the endpoint named in `path` (e.g. the session, or null without one); no example for that reason.',
  authPost: 'better-auth’s answer: any JSON, which depends on the endpoint named in `path` (e.g. the user and session after sign-in); no example for that reason.',
};
