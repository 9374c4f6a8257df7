/** The Pick list screen's rules: typed quantities, the garage's stock shared in arrival order, the lines sent, the toast. */
import { describe, expect, it } from 'vitest';
import type { PickListUnit } from '../../../common/contracts/forecast';
import { garageQuantities, lineShortfalls } from '../../../common/pick-list';
import { deliveredMessage, deliveryLines, leftBehind, lineKey, planLines } from './pick-list';

const line = (item_id: string, bring: number) => ({ item_id, quantity: 1, bring });
const nameOf = (itemId: string) => (itemId === 't' ? 'Bath Towel' : 'Coffee Pods');

const property = (unit_id: string, lines: PickListUnit['lines']): PickListUnit => ({
  unit_id,
  unit_name: unit_id === 'u1' ? 'Beach House' : 'Lake Cabin',
  address: '1 Main St',
  arrivals: [{ stay_id: `${unit_id}-s`, arrival_date: '2026-11-27', guests: 2, nights: 3 }],
  lines,
  service: null,
});

const list = [property('u1', [line('t', 4), line('c', 2)]), property('u2', [line('t', 3)])];
const stock = garageQuantities({ garage_stock: [{ item_id: 't', quantity: 5 }, { item_id: 'c', quantity: 10 }] });

describe('planLines', () => {
  it('fills each line with what to bring and shares the garage stock in arrival order', () => {
    const planned = planLines(list, stock, new Map());
    expect(planned.get(lineKey('u1', 't'))).toMatchObject({ text: '4', quantity: 4, short: 0 });
    // 5 towels in the garage: 4 go to the first property, 1 is left for the 3 of the second.
    expect(planned.get(lineKey('u2', 't'))).toMatchObject({ quantity: 3, short: 2 });
  });

  it('takes typed quantities, so lowering one line covers the next', () => {
    const planned = planLines(list, stock, new Map([[lineKey('u1', 't'), '2']]));
    expect(planned.get(lineKey('u1', 't'))).toMatchObject({ text: '2', quantity: 2, short: 0 });
    expect(planned.get(lineKey('u2', 't'))).toMatchObject({ short: 0 });
  });

  it('pre-fills each line with what the garage can give and keeps the shortfall of bring on the line', () => {
    const garage_stock = [{ item_id: 't', quantity: 5 }];
    const planned = planLines(list, garageQuantities({ garage_stock }), new Map(), lineShortfalls({ garage_stock, properties: list }));
    expect(planned.get(lineKey('u1', 't'))).toMatchObject({ text: '4', quantity: 4, short: 0 });
    expect(planned.get(lineKey('u1', 'c'))).toMatchObject({ text: '0', quantity: 0, short: 2 });
    expect(planned.get(lineKey('u2', 't'))).toMatchObject({ text: '1', quantity: 1, short: 2 });
    // Sent as it is, the delivery holds only what the garage has.
    expect(deliveryLines(list[0]!, planned, nameOf)).toEqual({ lines: [{ item_id: 't', item_name: 'Bath Towel', quantity: 4 }] });
  });

  it('counts an item the garage does not hold as 0 in stock', () => {
    const planned = planLines(list, garageQuantities({ garage_stock: [{ item_id: 't', quantity: 5 }] }), new Map());
    expect(planned.get(lineKey('u1', 'c'))).toMatchObject({ quantity: 2, short: 2 });
  });

  it('refuses fractions and negatives with the field message, and reads empty as 0', () => {
    const planned = planLines(list, stock, new Map([[lineKey('u1', 't'), '2.5'], [lineKey('u1', 'c'), '']]));
    expect(planned.get(lineKey('u1', 't'))).toMatchObject({ quantity: null, error: 'Quantity must be a whole number' });
    expect(planned.get(lineKey('u1', 'c'))).toMatchObject({ quantity: 0 });
    expect(planLines(list, stock, new Map([[lineKey('u1', 't'), '-1']])).get(lineKey('u1', 't'))).toMatchObject({ error: 'Quantity must be 0 or more' });
  });
});

describe('deliveryLines', () => {
  it('sends the lines above 0 with their names', () => {
    const planned = planLines(list, stock, new Map([[lineKey('u1', 'c'), '0']]));
    expect(deliveryLines(list[0]!, planned, nameOf)).toEqual({ lines: [{ item_id: 't', item_name: 'Bath Towel', quantity: 4 }] });
  });

  it('names the line whose quantity is refused', () => {
    const planned = planLines(list, stock, new Map([[lineKey('u1', 'c'), '1.5']]));
    expect(deliveryLines(list[0]!, planned, nameOf)).toEqual({ error: 'Coffee Pods: Quantity must be a whole number' });
  });
});

describe('deliveredMessage', () => {
  it('says what reached the property', () => {
    const names = new Map([['t', 'Bath Towel'], ['c', 'Coffee Pods']]);
    expect(deliveredMessage('Beach House', [{ item_id: 't', quantity: 3 }, { item_id: 'c', quantity: 2 }], names)).toBe('Delivered to Beach House: 3 Bath Towel, 2 Coffee Pods');
  });
});

describe('leftBehind', () => {
  it('names what a delivery did not bring of each line, and nothing for a line brought whole', () => {
    const names = (id: string) => ({ t: 'Bath Towel', c: 'Coffee Pods' })[id] ?? id;
    expect(leftBehind(list[0]!, [{ item_id: 't', quantity: 4 }], names)).toEqual([{ item_id: 'c', item_name: 'Coffee Pods', quantity: 2 }]);
    expect(leftBehind(list[0]!, [{ item_id: 't', quantity: 1 }, { item_id: 'c', quantity: 2 }], names)).toEqual([{ item_id: 't', item_name: 'Bath Towel', quantity: 3 }]);
    expect(leftBehind(list[0]!, [{ item_id: 't', quantity: 9 }, { item_id: 'c', quantity: 2 }], names)).toEqual([]);
  });
});
