/**
 * The Add Item / Edit Item form: what the inputs hold (text) and how it becomes the request body
 * (docs/product.md "Validation rules" — name and category required, cost a decimal and threshold a whole number, where
 * text that is not a number counts as 0).
 */
import { z } from 'zod';
import { itemBody, type Item } from '../../../common/contracts/stock';
import { moneyText, wholeNumberText } from '../../lib/number-text';

/** The message for a missing name or category (docs/product.md "Validation rules"). */
export const ITEM_REQUIRED_MESSAGE = 'Please fill out all fields';

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
  count_cost: moneyText,
  category: itemBody.shape.category,
  minimum_threshold: wholeNumberText,
});
