/**
 * The garage forms (docs/product.md "Screens: Garages", "Validation rules"): Add Garage with its initial inventory and the inline
 * edit of name and address — what the inputs hold and the request bodies. Stock is counted in count mode (features/count).
 */
import { z } from 'zod';
import { createGarageBody, updateGarageBody } from '../../../common/contracts/stock';
import { stockRowsForm, type StockRowDraft } from '../../components/stock-rows/stock-rows';

export interface GarageDraft {
  name: string;
  address: string;
  inventory: StockRowDraft[];
}

export const emptyGarageDraft: GarageDraft = { name: '', address: '', inventory: [] };

/** Add Garage draft -> POST /api/garages body; rows without an item or at 0 are skipped (and said so, stock-rows.ts). */
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
