/**
 * The Add Item / Edit Item form: what the inputs hold (text) and how it becomes the request body
 * (docs/product.md "Validation rules" — name and category required, cost a decimal and threshold a whole number, where
 * text that is not a number counts as 0 and a fraction of a threshold is refused, not cut).
 */
import { z } from 'zod';
import { itemBody, type Item } from '../../../common/contracts/stock';
import { numberText } from '../../lib/number-text';

export interface ItemDraft {
  name: string;
  count_cost: string;
  category: string;
  minimum_threshold: string;
}

/** An empty form, as Cancel leaves it: no name or category, cost 0, threshold 0. */
export const emptyItemDraft: ItemDraft = { name: '', count_cost: '0', category: '', minimum_threshold: '0' };

/** The Edit Item form of an existing item. */
export function draftFromItem(existing: Item): ItemDraft {
  return {
    name: existing.name,
    count_cost: String(existing.count_cost),
    category: existing.category,
    minimum_threshold: String(existing.minimum_threshold),
  };
}

/** Item draft -> POST /api/items and PATCH /api/items/:id body. */
export const itemForm = z.object({
  name: itemBody.shape.name,
  count_cost: numberText(itemBody.shape.count_cost.unwrap()),
  category: itemBody.shape.category,
  minimum_threshold: numberText(itemBody.shape.minimum_threshold.unwrap()),
});
