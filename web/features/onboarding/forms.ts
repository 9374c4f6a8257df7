/**
 * The onboarding steps' form values ("drafts": what the inputs hold, as text) and how each draft
 * becomes the request body of its step, checked by the shared contracts (docs/product.md "Validation rules").
 */
import { z } from 'zod';
import { companyStepBody, garageStepBody, onboardingItem, startingQuantity, uniqueItemNames, unitsStepBody } from '../../../common/contracts/onboarding';
import { numberText } from '../../lib/number-text';

/** The one message for a missing name, category or address in any row (docs/product.md "Validation rules"). */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

export const companyDraft = z.object({ company_name: z.string() });
export type CompanyDraft = z.infer<typeof companyDraft>;

/** `id`: the saved item this row edits (a reopened step), absent for a new one. */
export const itemDraft = z.object({
  id: z.string().optional(),
  name: z.string(),
  category: z.string(),
  minimum_threshold: z.string(),
  count_cost: z.string(),
});
export type ItemDraft = z.infer<typeof itemDraft>;
export const itemsDraft = z.object({ items: z.array(itemDraft) });
export type ItemsDraft = z.infer<typeof itemsDraft>;

/** A starting quantity as typed, per saved item; empty reads as 0. */
export const stockDraft = z.object({ item_id: z.string(), quantity: z.string() });
export type StockDraft = z.infer<typeof stockDraft>;
export const garageDraft = z.object({ name: z.string(), address: z.string(), stock: z.array(stockDraft).default([]) });
export type GarageDraft = z.infer<typeof garageDraft>;

export const unitDraft = z.object({ name: z.string(), address: z.string() });
export type UnitDraft = z.infer<typeof unitDraft>;
export const unitsDraft = z.object({ units: z.array(unitDraft), fill_to_minimum: z.boolean().default(true) });
export type UnitsDraft = z.infer<typeof unitsDraft>;

/** A new item row: threshold 0 and cost 0 (docs/product.md "Constants and limits"). */
export const emptyItem: ItemDraft = { name: '', category: '', minimum_threshold: '0', count_cost: '0' };
export const emptyUnit: UnitDraft = { name: '', address: '' };

/** Company draft -> POST /api/onboarding/company body. */
export const companyForm = companyStepBody;

/** Items draft -> POST /api/onboarding/items body. */
export const itemsForm = z.object({
  items: z
    .array(
      z.object({
        id: onboardingItem.shape.id,
        name: onboardingItem.shape.name,
        category: onboardingItem.shape.category,
        minimum_threshold: numberText(onboardingItem.shape.minimum_threshold.unwrap()),
        count_cost: numberText(onboardingItem.shape.count_cost.unwrap()),
      }),
    )
    .superRefine(uniqueItemNames),
});

/** Garage draft -> POST /api/onboarding/garage body. */
export const garageForm = z.object({
  name: garageStepBody.shape.name,
  address: garageStepBody.shape.address,
  stock: z.array(z.object({ item_id: startingQuantity.shape.item_id, quantity: numberText(startingQuantity.shape.quantity) })),
});

/** Units draft -> POST /api/onboarding/units body. */
export const unitsForm = z.object({ units: unitsStepBody.shape.units, fill_to_minimum: z.boolean() });

/**
 * The message to show under a field: its own ('Name must be at most 200 characters'), but not the
 * shared REQUIRED_FIELDS_MESSAGE, which the form shows once above its fields.
 */
export function ownMessage(error: { message?: string } | undefined): string | undefined {
  return error?.message === REQUIRED_FIELDS_MESSAGE ? undefined : error?.message;
}

/**
 * True when any row of an array's errors (as react-hook-form reports them) is a missing required
 * field; the form then shows REQUIRED_FIELDS_MESSAGE once instead of under every field.
 */
export function hasMissingRequiredField(rowErrors: unknown): boolean {
  if (!Array.isArray(rowErrors)) return false;
  return rowErrors.some(
    (row) =>
      typeof row === 'object' &&
      row !== null &&
      Object.values(row).some((fieldError) => (fieldError as { message?: unknown } | undefined)?.message === REQUIRED_FIELDS_MESSAGE),
  );
}
