/**
 * The unit forms (docs/product.md "Screens: Add Unit", "Screens: Unit detail", "Validation rules"): Add Unit with its inventory, Edit Unit
 * (name, address, assigned garage) and Add Manually — what the inputs hold and the request bodies.
 */
import { z } from 'zod';
import { addUnitStockBody, createUnitBody, updateUnitBody } from '../../../common/contracts/stock';
import { stockRowsForm, type StockRowDraft } from '../../components/stock-rows/stock-rows';

export const UNIT_REQUIRED_MESSAGE = 'Please provide unit name and address';
export const GARAGE_REQUIRED_MESSAGE = 'Please select a garage';
export const ADD_STOCK_REQUIRED_MESSAGE = 'Please fill in all fields';

export interface AddUnitDraft {
  name: string;
  address: string;
  /** '' until a garage is picked. */
  garage_id: string;
  inventory: StockRowDraft[];
}

export const emptyAddUnitDraft: AddUnitDraft = { name: '', address: '', garage_id: '', inventory: [] };

/** Add Unit draft -> POST /api/units body; rows without an item or at 0 are skipped (and said so, stock-rows.ts). */
export const addUnitForm = z.object({
  name: createUnitBody.shape.name,
  address: createUnitBody.shape.address,
  garage_id: createUnitBody.shape.garage_id,
  inventory: stockRowsForm,
});

export interface EditUnitDraft {
  name: string;
  address: string;
  /** '' for '-- Select a Garage --', which leaves the unit without a garage. */
  garage_id: string;
}

/** Edit Unit draft -> PATCH /api/units/:id body. */
export const editUnitForm = z.object({
  name: updateUnitBody.shape.name,
  address: updateUnitBody.shape.address,
  garage_id: z
    .string()
    .transform((id) => (id === '' ? null : id))
    .pipe(updateUnitBody.shape.garage_id),
});

/**
 * Where Add Manually's stock comes from (docs/product.md "Screens: Unit detail"): the unit's
 * garage (a transfer, what the garage loses the unit gains) or outside (a purchase or delivery).
 */
export type AddStockSource = 'garage' | 'outside';

export interface AddStockDraft {
  /** '' for '-- Select an Item --'. */
  item_id: string;
  quantity: string;
  source: AddStockSource;
}

/**
 * A new Add Manually form: no item, quantity 1 (docs/product.md "Constants and limits"), from the
 * garage when the unit has one.
 */
export function emptyAddStockDraft(hasGarage: boolean): AddStockDraft {
  return { item_id: '', quantity: '1', source: hasGarage ? 'garage' : 'outside' };
}

/** Add Manually draft -> where from, an item and a whole quantity >= 1. */
export const addStockForm = z.object({
  item_id: addUnitStockBody.shape.item_id,
  quantity: z.string().trim().min(1, ADD_STOCK_REQUIRED_MESSAGE).transform(Number).pipe(addUnitStockBody.shape.quantity),
  source: z.enum(['garage', 'outside']),
});
export type AddStockRequest = z.infer<typeof addStockForm>;

/** A garage as the garage pickers show it: 'name - address' (docs/product.md "Screens: Unit detail"). */
export function garageOptionLabel(garage: { name: string; address: string }): string {
  return `${garage.name} - ${garage.address}`;
}

