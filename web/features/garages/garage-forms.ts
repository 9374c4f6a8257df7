/**
 * The garage forms (docs/product.md "Screens: Garages", "Validation rules"): Add Garage with its initial inventory, the inline edit
 * of name and address, and Edit Inventory — what the inputs hold and the request bodies.
 */
import { z } from 'zod';
import { createGarageBody, updateGarageBody } from '../../../common/contracts/stock';
import { stockRowsForm, type StockRowDraft } from '../../components/stock-rows/stock-rows';

/** The message for a missing name or address (docs/product.md "Validation rules"). */
export const GARAGE_REQUIRED_MESSAGE = 'Please fill out all fields';

export interface GarageDraft {
  name: string;
  address: string;
  inventory: StockRowDraft[];
}

export const emptyGarageDraft: GarageDraft = { name: '', address: '', inventory: [] };

/** Add Garage draft -> POST /api/garages body. */
export const createGarageForm = z.object({
  name: createGarageBody.shape.name,
  address: createGarageBody.shape.address,
  inventory: stockRowsForm,
});

export interface GarageDetailsDraft {
  name: string;
  address: string;
}

/** Inline edit draft -> PATCH /api/garages/:id body. */
export const garageDetailsForm = updateGarageBody;

export interface GarageInventoryDraft {
  inventory: StockRowDraft[];
}

/** Edit Inventory draft -> PUT /api/garages/:id/inventory body. */
export const garageInventoryForm = z.object({ inventory: stockRowsForm });
