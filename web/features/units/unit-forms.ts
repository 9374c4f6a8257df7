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

/** Add Unit draft -> POST /api/units body; rows without an item or with quantity <= 0 are skipped. */
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

export interface AddStockDraft {
  /** '' for '-- Select an Item --'. */
  item_id: string;
  quantity: string;
}

/** A new Add Manually form: no item, quantity 1 (docs/product.md "Constants and limits"). */
export const emptyAddStockDraft: AddStockDraft = { item_id: '', quantity: '1' };

/** Add Manually draft -> POST /api/units/:id/inventory body: an item and a whole quantity >= 1. */
export const addStockForm = z.object({
  item_id: addUnitStockBody.shape.item_id,
  quantity: z.string().trim().min(1, ADD_STOCK_REQUIRED_MESSAGE).transform(Number).pipe(addUnitStockBody.shape.quantity),
});

/** A garage as the garage pickers show it: 'name - address' (docs/product.md "Screens: Unit detail"). */
export function garageOptionLabel(garage: { name: string; address: string }): string {
  return `${garage.name} - ${garage.address}`;
}

/** The distinct messages of a form's errors, in field order, for one alert each. */
export function errorMessages(errors: Partial<Record<string, { message?: string } | undefined>>, fields: readonly string[]): string[] {
  const messages = fields.map((field) => errors[field]?.message).filter((message): message is string => Boolean(message));
  return [...new Set(messages)];
}
