/**
 * Seeds a demo operator: a better-auth user who can sign in, a tenant set up through the
 * onboarding service, a second garage and garage assignments through the garage and unit
 * services, then 90 simulated days of supply history written only through the ledger
 * primitives (server/modules/stock/ledger.ts), so every quantity equals the sum of its ledger rows.
 *
 * The simulation: every property hosts back-to-back stays (2–7 nights, 1–8 guests); at each
 * checkout the stay's supplies are consumed in proportion to guests and nights. Each garage
 * gets a weekly supplier delivery and supplies its properties on two runs a week, topping up
 * whatever fell below its reorder point. Monthly garage stocktakes and property inspections
 * record small losses as `count` movements. Stock that runs short between runs is what the
 * dashboard shows as low or critical.
 *
 * The stays are stored as reservations (source 'demo', status 'confirmed', docs/product.md
 * "Stays"): those that departed in the history, whose consumption the ledger records, the ones
 * under way, and the bookings of the next {@link FUTURE_DAYS} days, drawn by the same generator
 * of stays but with a random stream of their own, so the history does not change with them.
 * The company's time zone is America/Los_Angeles: the simulation's days are Pacific days.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { queryRows, type Database, type Tx } from '../../server/db/client';
import { reservations } from '../../server/db/schema/integrations';
import { withTenant } from '../../server/db/tenant-tx';
import type { Identity, TenantIdentity } from '../../server/modules/auth/identity';
import { createGarage, listGarages } from '../../server/modules/garages/service';
import { listItems } from '../../server/modules/items/service';
import {
  createCompany,
  saveOnboardingGarage,
  saveOnboardingItems,
  saveOnboardingUnits,
} from '../../server/modules/onboarding/service';
import { changeStock, ensureStockRow, setStock } from '../../server/modules/stock/ledger';
import type { Location } from '../../server/modules/stock/tables';
import { inAlertSql, isCriticalSql, isUsageSql, stockStatusSql } from '../../server/modules/stock/rules';
import { computeCompanyForecast } from '../../server/modules/forecast/service';
import { transferToUnits } from '../../server/modules/stock/transfer';
import { CONFIRMED_STAY } from '../../server/modules/stays/stay-rules';
import { listUnits, updateUnit } from '../../server/modules/units/service';
import {
  DEMO_COMPANY,
  DEMO_EMAIL,
  DEMO_GARAGES,
  DEMO_ITEMS,
  DEMO_NAME,
  DEMO_PASSWORD,
  DEMO_UNITS,
  SHRINKING_CATEGORIES,
  parLevel,
  type DemoItem,
  type Stay,
} from './catalogue';
import { seededRandom } from '../lib/seeded-random';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Days of history, ending now. */
export const HISTORY_DAYS = 90;
/** Days after today the demo's calendars are booked for. */
export const FUTURE_DAYS = 30;
/** The company's time zone, in which the simulation's local days are calendar days. */
export const DEMO_TIME_ZONE = 'America/Los_Angeles';
/** Booking channels of the demo's stays, with how often each is drawn (cumulative shares). */
const CHANNELS: [string, number][] = [
  ['Airbnb', 0.55],
  ['Vrbo', 0.8],
  ['Direct', 1],
];
/**
 * One item per garage that the supplier has on back-order for the last weeks: the garage runs
 * dry and its properties run out, which the dashboard shows as critical rows.
 */
const BACKORDERED = ['Dishwasher Pods', 'Coffee Pods'];
const BACKORDER_DAYS = 35;
/** Weekday (0 = Sunday) of each garage's supplier delivery. */
const DELIVERY_WEEKDAY = [2, 4];
/** Weekdays each garage's team takes supplies out to its properties. */
const SUPPLY_RUN_WEEKDAYS = [
  [1, 4],
  [2, 5],
];
/**
 * The company works on US Pacific standard time: local hour h is UTC hour h + 8. In summer time
 * the clock reads one hour later; every event falls between 08:00 and 19:00, so its Pacific
 * calendar day is the same either way.
 */
const LOCAL_OFFSET_HOURS = 8;

export interface SeedDemoOptions {
  email?: string;
  password?: string;
  /** Delete the demo user's tenant and the user first, then seed again. */
  reset?: boolean;
  /** The end of the simulated history (default: the current time). */
  now?: Date;
  /** Seed of the pseudo-random simulation; the same seed gives the same history. */
  seed?: number;
  /**
   * Configuration for the in-process app that signs the user up (app URL, trial length). The
   * secret only signs tokens the seed never uses; passwords are hashed without it.
   */
  config?: Config & { appSecret: string };
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface SeedDemoSummary {
  status: 'created' | 'exists';
  email: string;
  /** The password, only when this run created the user. */
  password: string | null;
  tenantId: string | null;
  units: number;
  garages: number;
  items: number;
  ledgerRows: number;
  /** Unit stock rows at or below their item's threshold but above 0. */
  lowUnitRows: number;
  /** Unit stock rows at 0. */
  criticalUnitRows: number;
  /** Garage stock rows at or below their item's threshold. */
  garageAlerts: number;
  /** Dollars of usage (consumption and stocktake losses at properties). */
  usageCost: number;
  elapsedMs: number;
}

/**
 * Creates the demo operator on `database` (already migrated). When the email is taken and
 * `reset` is not set, changes nothing and answers `status: 'exists'`.
 * @throws Error when sign-up through the auth endpoint fails, or when the simulation's view of
 *   a quantity disagrees with the ledger (which would be a bug here, not in the data).
 */
export async function seedDemo(database: Database, options: SeedDemoOptions = {}): Promise<SeedDemoSummary> {
  const started = Date.now();
  const email = (options.email ?? DEMO_EMAIL).toLowerCase();
  const password = options.password ?? DEMO_PASSWORD;
  const now = options.now ?? new Date();
  const log = options.log ?? (() => {});
  const { db } = database;

  const [existing] = await queryRows<{ id: string }>(db, sql`select id from users where email = ${email}`);
  if (existing && !options.reset) {
    const [membership] = await queryRows<{ tenant_id: string }>(
      db,
      sql`select tenant_id from memberships where user_id = ${existing.id} limit 1`,
    );
    return { ...emptySummary(email), status: 'exists', tenantId: membership?.tenant_id ?? null, elapsedMs: Date.now() - started };
  }
  if (existing) {
    // Tenant rows cascade from tenants; the user's sessions, accounts and memberships from users.
    await db.execute(sql`delete from tenants where id in (select tenant_id from memberships where user_id = ${existing.id})`);
    await db.execute(sql`delete from users where id = ${existing.id}`);
    log(`Deleted the previous demo tenant of ${email}.`);
  }

  const config = options.config ?? { ...loadConfig({}), appSecret: randomBytes(32).toString('base64url') };
  const userId = await signUp(config, database, email, password);
  log(`Created user ${email}.`);

  const who: Identity = { userId, email, tenantId: null, role: null };
  const { tenant_id: tenantId } = await createCompany(db, who, { company_name: DEMO_COMPANY }, { trialDays: config.trialDays, now });
  const owner: TenantIdentity = { ...who, tenantId, role: 'owner' };
  await saveOnboardingItems(
    db,
    owner,
    { items: DEMO_ITEMS.map((i) => ({ name: i.name, category: i.category, minimum_threshold: i.min, count_cost: i.cost })) },
    now,
  );
  await saveOnboardingGarage(db, owner, { ...DEMO_GARAGES[0]!, stock: [] });
  await saveOnboardingUnits(db, owner, { units: DEMO_UNITS.map((u) => ({ name: u.name, address: u.address })), fill_to_minimum: false }, now);
  await createGarage(db, owner, { ...DEMO_GARAGES[1]!, inventory: [] }, now);

  const garageIds = new Map((await listGarages(db, owner)).map((g) => [g.name, g.id]));
  const gIds = DEMO_GARAGES.map((g) => garageIds.get(g.name)!);
  const unitRows = new Map((await listUnits(db, owner)).map((u) => [u.name, u]));
  for (const spec of DEMO_UNITS) {
    const unit = unitRows.get(spec.name)!;
    if (unit.garage_id !== gIds[spec.garage]) {
      await updateUnit(db, owner, unit.id, { name: unit.name, address: unit.address, garage_id: gIds[spec.garage]! });
    }
  }
  const itemIds = new Map((await listItems(db, owner)).map((i) => [i.name, i.id]));
  log(`Set up ${DEMO_COMPANY}: ${DEMO_GARAGES.length} garages, ${DEMO_UNITS.length} properties, ${DEMO_ITEMS.length} items.`);

  const sim = new Simulation({
    tenantId,
    userId,
    now,
    random: seededRandom(options.seed ?? 20240601),
    bookingRandom: seededRandom((options.seed ?? 20240601) ^ 0x5bd1e995),
    garageIds: gIds,
    unitIds: DEMO_UNITS.map((u) => unitRows.get(u.name)!.id),
    itemIds: DEMO_ITEMS.map((i) => itemIds.get(i.name)!),
  });
  await backdateSetup(database, tenantId, sim.eventTime(0, 7));
  for (let day = 0; day < HISTORY_DAYS; day++) {
    await withTenant(db, tenantId, (tx) => sim.runDay(tx, day));
    if ((day + 1) % 30 === 0) log(`Simulated ${day + 1} of ${HISTORY_DAYS} days.`);
  }
  await withTenant(db, tenantId, (tx) => alignStockTimestamps(tx, tenantId));
  await db.execute(sql`update tenants set time_zone = ${DEMO_TIME_ZONE} where id = ${tenantId}`);
  await withTenant(db, tenantId, (tx) => sim.storeStays(tx));
  log(`Stored ${sim.stays.length} stays as reservations, up to ${FUTURE_DAYS} days ahead.`);
  // Learned now, as the rates job would after a day's use: the demo's first dashboard and
  // Forecast then open with their figures, not after a first read that learns them (seconds).
  await computeCompanyForecast(db, tenantId, now);
  log('Learned the usage rates and computed the forecast.');

  const summary = await summarize(database, tenantId);
  return { ...summary, status: 'created', email, password, tenantId, elapsedMs: Date.now() - started };
}

function emptySummary(email: string): SeedDemoSummary {
  return {
    status: 'created',
    email,
    password: null,
    tenantId: null,
    units: 0,
    garages: 0,
    items: 0,
    ledgerRows: 0,
    lowUnitRows: 0,
    criticalUnitRows: 0,
    garageAlerts: 0,
    usageCost: 0,
    elapsedMs: 0,
  };
}

/**
 * Signs the user up through the app's own sign-up endpoint (so better-auth hashes the password)
 * and marks the email confirmed, as following the emailed link would.
 * @returns the new user id.
 * @throws Error with the endpoint's answer when sign-up is refused.
 */
async function signUp(config: Config & { appSecret: string }, database: Database, email: string, password: string): Promise<string> {
  // The confirmation email is not needed: the address is confirmed directly below.
  const app = await buildApp({ config, db: database.db, mailer: { send: async () => {} }, logger: false });
  try {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'application/json', origin: config.appUrl },
      payload: { email, password, name: DEMO_NAME },
    });
    if (res.statusCode !== 200) throw new Error(`Sign-up of ${email} failed (${res.statusCode}): ${res.body}`);
  } finally {
    await app.close();
  }
  const [user] = await queryRows<{ id: string }>(
    database.db,
    sql`update users set email_verified = true, updated_at = now() where email = ${email} returning id`,
  );
  return user!.id;
}

/**
 * Moves the setup (tenant, locations, items and the `initial` ledger rows onboarding wrote) to
 * the start of the simulated history, so nothing looks older than the company.
 */
async function backdateSetup(database: Database, tenantId: string, at: Date): Promise<void> {
  await database.db.execute(sql`update tenants set created_at = ${at} where id = ${tenantId}`);
  await withTenant(database.db, tenantId, async (tx) => {
    for (const table of ['garages', 'units', 'items']) {
      await tx.execute(sql`update ${sql.identifier(table)} set created_at = ${at} where tenant_id = ${tenantId}`);
    }
    await tx.execute(sql`update inventory_logs set created_at = ${at} where tenant_id = ${tenantId} and type = 'initial'`);
  });
}

/** Stock rows' updated_at (shown as an alert's time) becomes the time of their last movement. */
async function alignStockTimestamps(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`
    update unit_inventory s set updated_at = l.last
    from (select unit_id, item_id, max(created_at) as last from inventory_logs
          where tenant_id = ${tenantId} and source_type = 'unit' group by 1, 2) l
    where s.tenant_id = ${tenantId} and s.unit_id = l.unit_id and s.item_id = l.item_id`);
  await tx.execute(sql`
    update garage_inventory s set updated_at = l.last
    from (select garage_id, item_id, max(created_at) as last from inventory_logs
          where tenant_id = ${tenantId} and source_type = 'garage' group by 1, 2) l
    where s.tenant_id = ${tenantId} and s.garage_id = l.garage_id and s.item_id = l.item_id`);
}

async function summarize(database: Database, tenantId: string): Promise<Omit<SeedDemoSummary, 'status' | 'email' | 'password' | 'tenantId' | 'elapsedMs'>> {
  return withTenant(database.db, tenantId, async (tx) => {
    const [row] = await queryRows<Record<string, string | number>>(
      tx,
      sql`select
        (select count(*) from units where tenant_id = ${tenantId})::int as units,
        (select count(*) from garages where tenant_id = ${tenantId})::int as garages,
        (select count(*) from items where tenant_id = ${tenantId})::int as items,
        (select count(*) from inventory_logs where tenant_id = ${tenantId})::int as ledger_rows,
        (select count(*) from unit_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
          where s.tenant_id = ${tenantId} and ${stockStatusSql(sql`s.quantity`, sql`i.minimum_threshold`)} = 'low')::int as low,
        (select count(*) from unit_inventory s where s.tenant_id = ${tenantId} and ${isCriticalSql(sql`s.quantity`)})::int as critical,
        (select count(*) from garage_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
          where s.tenant_id = ${tenantId} and ${inAlertSql(sql`s.quantity`, sql`i.minimum_threshold`)})::int as garage_alerts,
        (select coalesce(sum(-l.quantity_change * l.unit_cost), 0) from inventory_logs l
          where l.tenant_id = ${tenantId} and ${isUsageSql}) as usage_cost`,
    );
    return {
      units: Number(row!.units),
      garages: Number(row!.garages),
      items: Number(row!.items),
      ledgerRows: Number(row!.ledger_rows),
      lowUnitRows: Number(row!.low),
      criticalUnitRows: Number(row!.critical),
      garageAlerts: Number(row!.garage_alerts),
      usageCost: Number(row!.usage_cost),
    };
  });
}

interface SimulationInput {
  tenantId: string;
  userId: string;
  now: Date;
  random: () => number;
  /** The stream of the future stays and every stay's channel, apart from the history's. */
  bookingRandom: () => number;
  /** Ids in DEMO_GARAGES order. */
  garageIds: string[];
  /** Ids in DEMO_UNITS order. */
  unitIds: string[];
  /** Ids in DEMO_ITEMS order. */
  itemIds: string[];
}

/** Checkouts by day: unit index and stay. */
type Checkouts = Map<number, { unit: number; stay: Stay }[]>;

/** A planned stay: its property (index into DEMO_UNITS), its number there, its arrival day (0 = 89 days ago). */
interface PlannedStay extends Stay {
  unit: number;
  number: number;
  arrival: number;
  channel: string;
}

/**
 * The day-by-day simulation. It keeps its own copy of every quantity to decide what to do, and
 * takes each new quantity from the ledger primitive's answer; a primitive refusing a change the
 * copy allowed means the two disagree, and the seed stops.
 */
class Simulation {
  private readonly quantities = new Map<string, number>();
  private readonly checkouts: Checkouts = new Map();
  /** Every stay that departs on day 0 or later and arrives before the end of the booked days. */
  readonly stays: PlannedStay[] = [];
  /** Local midnight (as a UTC instant) of the last simulated day. */
  private readonly lastMidnight: number;

  constructor(private readonly input: SimulationInput) {
    const local = input.now.getTime() - LOCAL_OFFSET_HOURS * HOUR;
    this.lastMidnight = Math.floor(local / DAY) * DAY + LOCAL_OFFSET_HOURS * HOUR;
    DEMO_UNITS.forEach((unit, index) => this.planStays(index, unit.capacity));
  }

  /** The instant of local `hour` (fractions allowed) on simulated `day` (0 = 89 days ago). */
  eventTime(day: number, hour: number): Date {
    return new Date(this.lastMidnight - (HISTORY_DAYS - 1 - day) * DAY + hour * HOUR);
  }

  private rand(min: number, max: number, random = this.input.random): number {
    return min + Math.floor(random() * (max - min + 1));
  }

  /** A whole draw around `expected`: jittered ±25 %, the fraction rounded up by chance. */
  private draw(expected: number): number {
    const e = expected * (0.75 + 0.5 * this.input.random());
    const whole = Math.floor(e);
    return whole + (this.input.random() < e - whole ? 1 : 0);
  }

  /**
   * Back-to-back stays of one property: the history's from its random stream (their checkouts
   * are consumed by {@link runDay}), then the booked days' from the booking stream.
   */
  private planStays(unit: number, capacity: number): void {
    const plan = (first: number, until: number, random: () => number): number => {
      let day = first;
      while (day < until) {
        const nights = this.rand(2, 7, random);
        const guests = Math.max(1, Math.min(capacity, 8, Math.round(capacity * (0.35 + 0.65 * random()))));
        const checkout = day + nights;
        if (checkout >= 0) {
          const b = this.input.bookingRandom();
          const channel = CHANNELS.find(([, share]) => b < share)![0];
          this.stays.push({ unit, number: this.stays.filter((s) => s.unit === unit).length + 1, arrival: day, nights, guests, channel });
        }
        if (checkout >= 0 && checkout < HISTORY_DAYS) {
          const list = this.checkouts.get(checkout) ?? [];
          list.push({ unit, stay: { guests, nights } });
          this.checkouts.set(checkout, list);
        }
        const r = random();
        day = checkout + (r < 0.35 ? 0 : r < 0.65 ? 1 : r < 0.85 ? 2 : this.rand(3, 6, random));
      }
      return day;
    };
    // The first guests may have arrived before the history starts.
    const next = plan(-this.rand(0, 4), HISTORY_DAYS, this.input.random);
    plan(next, HISTORY_DAYS + FUTURE_DAYS, this.input.bookingRandom);
  }

  /** The local calendar date ('YYYY-MM-DD') of simulated `day`, before, in or after the history. */
  private localDate(day: number): string {
    return new Date(this.eventTime(day, 12).getTime() - LOCAL_OFFSET_HOURS * HOUR).toISOString().slice(0, 10);
  }

  /** Writes every planned stay as a 'demo' reservation of its property. */
  async storeStays(tx: Tx): Promise<void> {
    if (this.stays.length === 0) return;
    await tx.insert(reservations).values(
      this.stays.map((s) => ({
        tenantId: this.input.tenantId,
        source: 'demo' as const,
        // Stable for a seed, whatever the clock: the property's place in the catalogue, the stay's number there.
        id: `P${String(s.unit + 1).padStart(2, '0')}-S${String(s.number).padStart(3, '0')}`,
        unitId: this.input.unitIds[s.unit]!,
        arrivalDate: this.localDate(s.arrival),
        departureDate: this.localDate(s.arrival + s.nights),
        nights: s.nights,
        guests: s.guests,
        status: CONFIRMED_STAY,
        channel: s.channel,
        syncedAt: this.input.now,
      })),
    );
  }

  private key(location: Location, item: number): string {
    return `${location.kind}:${location.id}:${item}`;
  }

  private quantity(location: Location, item: number): number {
    return this.quantities.get(this.key(location, item)) ?? 0;
  }

  private meta(note: string) {
    return { tenantId: this.input.tenantId, userId: this.input.userId, note };
  }

  /** Gives the ledger rows this transaction wrote since the last stamp the simulated time `at`. */
  private async stamp(tx: Tx, at: Date): Promise<void> {
    // Ledger rows default to now(), the transaction's start, so "= now()" selects exactly the
    // rows not stamped yet; only created_at changes, never a quantity.
    await tx.execute(sql`update inventory_logs set created_at = ${at} where tenant_id = ${this.input.tenantId} and created_at = now()`);
  }

  private unitsOf(garage: number): number[] {
    return DEMO_UNITS.flatMap((u, i) => (u.garage === garage ? [i] : []));
  }

  /** Expected use of `item` per week by the properties a garage supplies. */
  private weeklyUse(item: DemoItem, garage: number): number {
    return this.unitsOf(garage).reduce((sum, u) => {
      const capacity = DEMO_UNITS[u]!.capacity;
      // A typical week: about 1.3 checkouts of 4 nights at 70 % of capacity.
      return sum + 1.3 * item.use({ guests: Math.max(1, Math.round(capacity * 0.7)), nights: 4 });
    }, 0);
  }

  /** Runs one simulated day: deliveries, checkouts, supply runs, stocktakes. */
  async runDay(tx: Tx, day: number): Promise<void> {
    const at = (hour: number) => this.eventTime(day, hour);
    const due = (hour: number) => at(hour).getTime() <= this.input.now.getTime();
    // The local calendar date of this day: schedules follow weekdays and month ends.
    const local = new Date(at(12).getTime() - LOCAL_OFFSET_HOURS * HOUR);
    const weekday = local.getUTCDay();
    const daysLeftInMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate() - local.getUTCDate();

    for (let g = 0; g < DEMO_GARAGES.length; g++) {
      if ((day === 0 || weekday === DELIVERY_WEEKDAY[g]) && due(8 + g)) {
        await this.delivery(tx, g, day);
        await this.stamp(tx, at(8 + g));
      }
    }

    for (const { unit, stay } of this.checkouts.get(day) ?? []) {
      const hour = 10 + unit / 15;
      if (!due(hour)) continue;
      await this.checkout(tx, unit, stay);
      await this.stamp(tx, at(hour));
    }

    for (let g = 0; g < DEMO_GARAGES.length; g++) {
      if (day !== 0 && !SUPPLY_RUN_WEEKDAYS[g]!.includes(weekday)) continue;
      for (const [order, unit] of this.unitsOf(g).entries()) {
        const hour = 12 + order * 0.6;
        if (!due(hour)) continue;
        await this.supplyRun(tx, g, unit);
        await this.stamp(tx, at(hour));
      }
    }

    for (let g = 0; g < DEMO_GARAGES.length; g++) {
      const hour = 17 + g * 0.5;
      if (daysLeftInMonth === g && due(hour)) {
        await this.garageStocktake(tx, g);
        await this.stamp(tx, at(hour));
      }
    }
    for (let u = 0; u < DEMO_UNITS.length; u++) {
      const hour = 15.5 + u / 30;
      if ((day + u * 3) % 21 === 20 && due(hour)) {
        await this.inspection(tx, u);
        await this.stamp(tx, at(hour));
      }
    }
  }

  /** The supplier's weekly delivery: order-up-to, in whole cases; now and then an item is back-ordered. */
  private async delivery(tx: Tx, garage: number, day: number): Promise<void> {
    const location: Location = { kind: 'garage', id: this.input.garageIds[garage]! };
    const opening = day === 0;
    for (const [index, item] of DEMO_ITEMS.entries()) {
      const weekly = this.weeklyUse(item, garage);
      const stocked = this.unitsOf(garage).reduce((s, u) => s + parLevel(item, DEMO_UNITS[u]!.capacity), 0);
      const target = Math.ceil(weekly * 2.2 + stocked * 0.25 + (opening ? stocked : 0));
      const have = this.quantity(location, index);
      if (!opening && (have >= weekly * 1.3 || this.input.random() < 0.06)) continue;
      if (!opening && day >= HISTORY_DAYS - BACKORDER_DAYS && BACKORDERED[garage] === item.name) continue;
      const cases = Math.ceil(Math.max(0, target - have) / item.casePack);
      if (cases === 0) continue;
      await ensureStockRow(tx, this.input.tenantId, location, this.input.itemIds[index]!);
      const after = await changeStock(tx, location, this.input.itemIds[index]!, cases * item.casePack, 'external_addition', this.meta(
        opening ? 'Opening stock purchase' : `Supplier delivery: ${cases} case${cases === 1 ? '' : 's'}`,
      ));
      this.record(location, index, after);
    }
  }

  /** Guests leave: the stay's supplies are used up, as far as the property had them. */
  private async checkout(tx: Tx, unit: number, stay: Stay): Promise<void> {
    const location: Location = { kind: 'unit', id: this.input.unitIds[unit]! };
    const note = `Checkout: ${stay.guests} guest${stay.guests === 1 ? '' : 's'}, ${stay.nights} nights`;
    for (const [index, item] of DEMO_ITEMS.entries()) {
      const used = Math.min(this.quantity(location, index), this.draw(item.use(stay)));
      if (used <= 0) continue;
      const after = await changeStock(tx, location, this.input.itemIds[index]!, -used, 'consumption', this.meta(note));
      this.record(location, index, after);
    }
  }

  /** A supply run: items at or below their reorder point are topped up to par from the garage, in one transfer. */
  private async supplyRun(tx: Tx, garage: number, unit: number): Promise<void> {
    const unitLocation: Location = { kind: 'unit', id: this.input.unitIds[unit]! };
    const garageLocation: Location = { kind: 'garage', id: this.input.garageIds[garage]! };
    const lines: { index: number; quantity: number }[] = [];
    for (const [index, item] of DEMO_ITEMS.entries()) {
      const par = parLevel(item, DEMO_UNITS[unit]!.capacity);
      const have = this.quantity(unitLocation, index);
      // Tidy-minded cleaners top up half-used items; the rest only what has run low.
      const reorderPoint = Math.max(item.min, Math.floor(par * 0.5));
      if (have > reorderPoint) continue;
      // Sometimes the cart is full or the item is forgotten: the next run catches it.
      if (have > 0 && this.input.random() < 0.15) continue;
      const moved = Math.min(par - have, this.quantity(garageLocation, index));
      if (moved > 0) lines.push({ index, quantity: moved });
    }
    if (lines.length === 0) return;
    const meta = this.meta('Supply run');
    const outcomes = await transferToUnits(
      tx,
      meta.tenantId,
      lines.map((l) => ({ unitId: unitLocation.id, itemId: this.input.itemIds[l.index]!, quantity: l.quantity, userId: meta.userId })),
      { type: 'restock', note: meta.note },
    );
    for (const [i, outcome] of outcomes.entries()) {
      const { index } = lines[i]!;
      if (outcome.kind !== 'moved') throw new Error(`demo supply run: ${outcome.kind} for unit ${unit}, item ${index}`);
      this.record(garageLocation, index, outcome.garageQuantity);
      this.record(unitLocation, index, outcome.unitQuantity);
    }
  }

  /** Monthly garage count: a few items come up a little short (breakage, miscounts, theft). */
  private async garageStocktake(tx: Tx, garage: number): Promise<void> {
    const location: Location = { kind: 'garage', id: this.input.garageIds[garage]! };
    for (const index of DEMO_ITEMS.keys()) {
      const have = this.quantity(location, index);
      if (have <= 0) continue;
      const r = this.input.random();
      const counted =
        r < 0.3 ? Math.max(0, have - this.rand(1, Math.max(1, Math.round(have * 0.02)))) : r < 0.35 ? have + 1 : have;
      if (counted === have) continue;
      const result = await setStock(tx, location, this.input.itemIds[index]!, counted, this.meta('Monthly stocktake'));
      this.record(location, index, result.quantity);
    }
  }

  /** A property inspection: linens, toiletries and batteries that walked out with guests. */
  private async inspection(tx: Tx, unit: number): Promise<void> {
    const location: Location = { kind: 'unit', id: this.input.unitIds[unit]! };
    for (const [index, item] of DEMO_ITEMS.entries()) {
      const have = this.quantity(location, index);
      if (have <= 0 || !SHRINKING_CATEGORIES.has(item.category) || this.input.random() >= 0.12) continue;
      const result = await setStock(tx, location, this.input.itemIds[index]!, have - 1, this.meta('Property inspection count'));
      this.record(location, index, result.quantity);
    }
  }

  private record(location: Location, item: number, quantity: number | null): void {
    if (quantity === null) {
      throw new Error(`The ledger refused a change the simulation expected to fit (${location.kind} ${location.id}, ${DEMO_ITEMS[item]!.name}).`);
    }
    this.quantities.set(this.key(location, item), quantity);
  }
}
