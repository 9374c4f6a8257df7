/**
 * The demo operator's world: a coastal short-term-rental company with two storage garages,
 * fifteen properties and the supplies a turnover uses. Figures are plausible, not sourced:
 * unit costs are US wholesale dollars per counted unit (a roll, a pod, a bottle, a set).
 */

/** A guest stay as the consumption model sees it. */
export interface Stay {
  /** Guests, 1..8. */
  guests: number;
  /** Nights, 2..7. */
  nights: number;
}

export interface DemoItem {
  name: string;
  category: string;
  /** Dollars per counted unit (items.count_cost). */
  cost: number;
  /** items.minimum_threshold: a unit holding this many or fewer is "low". */
  min: number;
  /** Quantity a 4-guest property is stocked up to on a supply run. */
  par: number;
  /** Whether the par level grows with the property's guest capacity. */
  scales: boolean;
  /** Units per supplier case; garage orders are rounded up to whole cases. */
  casePack: number;
  /** Expected quantity used up (or lost, for linens) by one stay, at checkout. */
  use: (stay: Stay) => number;
}

export interface DemoGarage {
  name: string;
  address: string;
}

export interface DemoUnit {
  name: string;
  address: string;
  /** Most guests the property sleeps. */
  capacity: number;
  /** Index into DEMO_GARAGES of the garage that supplies it. */
  garage: 0 | 1;
}

export const DEMO_COMPANY = 'Seaside Stays';
export const DEMO_EMAIL = 'demo@seasidestays.example.com';
export const DEMO_PASSWORD = 'seaside-demo-2024';
export const DEMO_NAME = 'Demo Operator';

export const DEMO_GARAGES: DemoGarage[] = [
  { name: 'Seaside Supply Garage', address: '1250 S Roosevelt Dr, Bay 4, Seaside, OR 97138' },
  { name: 'Cannon Beach Storage', address: '1201 S Hemlock St, Unit 14, Cannon Beach, OR 97110' },
];

export const DEMO_UNITS: DemoUnit[] = [
  { name: 'Driftwood Beach House', address: '215 Beach Dr, Seaside, OR 97138', capacity: 8, garage: 0 },
  { name: 'Tidepool Cottage', address: '1848 Ocean Way, Seaside, OR 97138', capacity: 4, garage: 0 },
  { name: 'Promenade Condo 204', address: '401 N Promenade, Unit 204, Seaside, OR 97138', capacity: 4, garage: 0 },
  { name: 'Promenade Condo 310', address: '401 N Promenade, Unit 310, Seaside, OR 97138', capacity: 2, garage: 0 },
  { name: 'Gearhart Dunes House', address: '712 Pacific Way, Gearhart, OR 97138', capacity: 6, garage: 0 },
  { name: 'Necanicum River Cabin', address: '84512 Lewis and Clark Rd, Seaside, OR 97138', capacity: 5, garage: 0 },
  { name: 'Broadway Street Loft', address: '27 Broadway St, Loft 3, Seaside, OR 97138', capacity: 2, garage: 0 },
  { name: 'Haystack View Condo', address: '148 E Gower Ave, Unit 12, Cannon Beach, OR 97110', capacity: 4, garage: 1 },
  { name: 'Cannon Beach Bungalow', address: '362 N Spruce St, Cannon Beach, OR 97110', capacity: 4, garage: 1 },
  { name: 'Ecola Creek Lodge', address: '1116 N Larch St, Cannon Beach, OR 97110', capacity: 8, garage: 1 },
  { name: 'Tolovana Beach House', address: '3180 S Hemlock St, Cannon Beach, OR 97110', capacity: 6, garage: 1 },
  { name: 'Arch Cape Cabin', address: '79340 Cove Beach Rd, Arch Cape, OR 97102', capacity: 5, garage: 1 },
  { name: 'Hemlock Street Loft', address: '239 N Hemlock St, Loft B, Cannon Beach, OR 97110', capacity: 2, garage: 1 },
  { name: 'Manzanita Shore Cottage', address: '155 Ocean Rd, Manzanita, OR 97130', capacity: 4, garage: 1 },
  { name: 'Neahkahnie Ridge Cabin', address: '36890 Beulah Reed Rd, Nehalem, OR 97131', capacity: 6, garage: 1 },
];

const guestNights = (s: Stay) => s.guests * s.nights;

// Linens are laundered, not used up: their "use" is the occasional towel that leaves with a
// guest or comes back stained beyond saving.
export const DEMO_ITEMS: DemoItem[] = [
  { name: 'Bath Towel', category: 'Linens', cost: 8.5, min: 4, par: 10, scales: true, casePack: 12, use: (s) => 0.05 + 0.03 * s.guests },
  { name: 'Hand Towel', category: 'Linens', cost: 4.25, min: 2, par: 6, scales: true, casePack: 12, use: () => 0.08 },
  { name: 'Washcloth', category: 'Linens', cost: 1.75, min: 4, par: 10, scales: true, casePack: 24, use: (s) => 0.06 * s.guests },
  { name: 'Bath Mat', category: 'Linens', cost: 9, min: 1, par: 3, scales: false, casePack: 6, use: () => 0.04 },
  { name: 'Queen Sheet Set', category: 'Linens', cost: 38, min: 1, par: 3, scales: false, casePack: 4, use: () => 0.04 },
  { name: 'King Sheet Set', category: 'Linens', cost: 52, min: 1, par: 2, scales: false, casePack: 4, use: () => 0.03 },
  { name: 'Pillowcase', category: 'Linens', cost: 5.5, min: 4, par: 8, scales: true, casePack: 12, use: (s) => 0.04 * s.guests },
  { name: 'Duvet Cover', category: 'Linens', cost: 45, min: 1, par: 2, scales: false, casePack: 4, use: () => 0.02 },
  { name: 'Toilet Paper', category: 'Paper Goods', cost: 0.65, min: 8, par: 24, scales: true, casePack: 48, use: (s) => guestNights(s) / 2 },
  { name: 'Paper Towels', category: 'Paper Goods', cost: 1.4, min: 3, par: 8, scales: true, casePack: 24, use: (s) => 0.5 + guestNights(s) / 8 },
  { name: 'Facial Tissues', category: 'Paper Goods', cost: 1.6, min: 2, par: 4, scales: false, casePack: 24, use: (s) => guestNights(s) / 12 },
  { name: 'Trash Bags', category: 'Paper Goods', cost: 0.22, min: 8, par: 20, scales: false, casePack: 100, use: (s) => 2 + s.nights },
  { name: 'Dish Soap', category: 'Kitchen', cost: 3.25, min: 1, par: 2, scales: false, casePack: 12, use: (s) => 0.1 + 0.03 * s.nights },
  { name: 'Dishwasher Pods', category: 'Kitchen', cost: 0.3, min: 6, par: 20, scales: false, casePack: 80, use: (s) => 0.8 * s.nights },
  { name: 'Sponges', category: 'Kitchen', cost: 0.8, min: 2, par: 4, scales: false, casePack: 24, use: () => 1 },
  { name: 'Coffee Pods', category: 'Kitchen', cost: 0.55, min: 12, par: 40, scales: true, casePack: 100, use: (s) => 1.6 * guestNights(s) },
  { name: 'Tea Bags', category: 'Kitchen', cost: 0.12, min: 6, par: 20, scales: false, casePack: 100, use: (s) => 0.4 * guestNights(s) },
  { name: 'Sugar Packets', category: 'Kitchen', cost: 0.03, min: 10, par: 40, scales: false, casePack: 200, use: (s) => 0.8 * guestNights(s) },
  { name: 'Creamer Cups', category: 'Kitchen', cost: 0.1, min: 10, par: 30, scales: true, casePack: 180, use: (s) => 1.1 * guestNights(s) },
  { name: 'Bottled Water', category: 'Kitchen', cost: 0.4, min: 6, par: 16, scales: true, casePack: 24, use: (s) => 1.5 * s.guests },
  { name: 'Shampoo', category: 'Toiletries', cost: 0.85, min: 4, par: 10, scales: true, casePack: 50, use: (s) => 0.5 * s.guests + 0.1 * s.nights },
  { name: 'Conditioner', category: 'Toiletries', cost: 0.85, min: 4, par: 10, scales: true, casePack: 50, use: (s) => 0.4 * s.guests },
  { name: 'Body Wash', category: 'Toiletries', cost: 0.9, min: 4, par: 10, scales: true, casePack: 50, use: (s) => 0.5 * s.guests },
  { name: 'Hand Soap', category: 'Toiletries', cost: 2.75, min: 1, par: 3, scales: false, casePack: 12, use: () => 0.3 },
  { name: 'Lotion', category: 'Toiletries', cost: 0.75, min: 2, par: 6, scales: true, casePack: 50, use: (s) => 0.3 * s.guests },
  { name: 'Laundry Detergent Pods', category: 'Laundry', cost: 0.35, min: 6, par: 20, scales: false, casePack: 90, use: (s) => 1 + 0.3 * s.nights },
  { name: 'All-Purpose Cleaner', category: 'Cleaning', cost: 4.5, min: 1, par: 2, scales: false, casePack: 12, use: () => 0.2 },
  { name: 'Glass Cleaner', category: 'Cleaning', cost: 3.9, min: 1, par: 2, scales: false, casePack: 12, use: () => 0.12 },
  { name: 'Disinfecting Wipes', category: 'Cleaning', cost: 5.25, min: 1, par: 2, scales: false, casePack: 6, use: () => 0.25 },
  { name: 'LED Light Bulbs', category: 'Maintenance', cost: 2.8, min: 2, par: 4, scales: false, casePack: 12, use: (s) => 0.01 * s.nights },
  { name: 'AA Batteries', category: 'Maintenance', cost: 0.75, min: 4, par: 8, scales: false, casePack: 24, use: () => 0.15 },
];

/** Items a property inspection finds missing now and then (they walk out with guests). */
export const SHRINKING_CATEGORIES = new Set(['Linens', 'Toiletries', 'Maintenance']);

/** The level a property of `capacity` guests is stocked up to for `item`. */
export function parLevel(item: DemoItem, capacity: number): number {
  if (!item.scales) return item.par;
  return Math.max(item.min + 2, Math.round((item.par * capacity) / 4));
}
