/**
 * The Add Item / Edit Item form: what the inputs hold (text) and how it becomes the request body
 * (docs/product.md "Validation rules" — name and category required, cost a decimal and threshold a whole number, where
 * text that is not a number counts as 0 and a fraction of a threshold is refused, not cut). The
 * default usage per stay is optional: empty means none; so is the item's own service level: empty
 * means the company's (docs/product.md "Screens: Items").
 */
import { z } from 'zod';
import { itemBody, type Item } from '../../../common/contracts/stock';
import { numberText, parseNumber } from '../../lib/number-text';

export interface ItemDraft {
  name: string;
  count_cost: string;
  category: string;
  minimum_threshold: string;
  /** Empty: no default usage per stay. */
  usage_per_stay_default: string;
  /** Empty: the company's service level; else one of SERVICE_LEVELS, percent. */
  service_level: string;
}

/** An empty form, as Cancel leaves it: no name or category, cost 0, threshold 0. */
export const emptyItemDraft: ItemDraft = { name: '', count_cost: '0', category: '', minimum_threshold: '0', usage_per_stay_default: '', service_level: '' };

/** The Edit Item form of an existing item. */
export function draftFromItem(existing: Item): ItemDraft {
  return {
    name: existing.name,
    count_cost: String(existing.count_cost),
    category: existing.category,
    minimum_threshold: String(existing.minimum_threshold),
    usage_per_stay_default: existing.usage_per_stay_default == null ? '' : String(existing.usage_per_stay_default),
    service_level: existing.service_level == null ? '' : String(existing.service_level),
  };
}

/** Item draft -> POST /api/items and PATCH /api/items/:id body. */
export const itemForm = z.object({
  name: itemBody.shape.name,
  count_cost: numberText(itemBody.shape.count_cost.unwrap()),
  category: itemBody.shape.category,
  minimum_threshold: numberText(itemBody.shape.minimum_threshold.unwrap()),
  // Sent on every save: null clears a default the item had.
  usage_per_stay_default: z
    .string()
    .transform((text) => (text.trim() === '' ? null : parseNumber(text)))
    .pipe(itemBody.shape.usage_per_stay_default.unwrap()),
  // Sent on every save: empty is the company's level.
  service_level: z
    .string()
    .transform((text) => (text === '' ? null : Number(text)))
    .pipe(itemBody.shape.service_level.unwrap()),
});
