/**
 * Onboarding API contracts: the steps' bodies (docs/product.md "Screens: Onboarding", "States
 * and transitions" and "Validation rules"). The steps and the status: onboarding-status.ts.
 */
import { z } from 'zod';
import { money, requiredText, wholeNumber } from './fields';
import { item, itemNameTaken, repeatedItemName, restockToMinimumResult } from './stock';

/** POST /api/onboarding/company — creates the tenant with its trial; the caller becomes owner. */
export const companyStepBody = z.strictObject({ company_name: requiredText('Company name', 'Please enter a company name') });
export type CompanyStepBody = z.infer<typeof companyStepBody>;

/**
 * One item of the items step. `id` names an item saved by an earlier submit of the step (edited,
 * not replaced); without it the item is matched by name, without regard to case, or added.
 */
export const onboardingItem = z.strictObject({
  id: z.uuid('Item must be an item id').optional(),
  name: requiredText('Name', 'Please fill in all required fields'),
  category: requiredText('Category', 'Please fill in all required fields'),
  minimum_threshold: wholeNumber('Minimum threshold').default(0),
  count_cost: money('Count cost').default(0),
});
/** Most items, and most properties, the onboarding takes. */
export const MAX_ONBOARDING_ROWS = 500;

/** The refinement of a list of items: each name at most once, without regard to case ('An item named Bath Towel already exists'). */
export function uniqueItemNames(items: readonly { name: string }[], ctx: z.RefinementCtx): void {
  const repeated = repeatedItemName(items.map((i) => i.name));
  if (repeated !== undefined) ctx.addIssue({ code: 'custom', message: itemNameTaken(repeated) });
}

/**
 * POST /api/onboarding/items — the items as they should be: saved ones are updated (by id, else
 * by name), new ones added, and saved ones left out are removed unless they hold stock. Each name
 * at most once.
 */
export const itemsStepBody = z.strictObject({
  items: z.array(onboardingItem).max(MAX_ONBOARDING_ROWS, `At most ${MAX_ONBOARDING_ROWS} items`).superRefine(uniqueItemNames),
});
export type ItemsStepBody = z.infer<typeof itemsStepBody>;

/** One starting quantity of the storage step: pieces of an item the garage holds on day one. */
export const startingQuantity = z.strictObject({
  item_id: z.uuid('Item must be an item id'),
  quantity: wholeNumber('Starting quantity'),
});

/**
 * POST /api/onboarding/garage — the onboarding storage location (created or updated) and its
 * starting quantity of each item (items left out keep what they hold; each item at most once).
 */
export const garageStepBody = z.strictObject({
  name: requiredText('Name', 'Please fill in all required fields'),
  address: requiredText('Address', 'Please fill in all required fields'),
  stock: z
    .array(startingQuantity)
    .max(MAX_ONBOARDING_ROWS, `At most ${MAX_ONBOARDING_ROWS} starting quantities`)
    .refine((lines) => new Set(lines.map((l) => l.item_id)).size === lines.length, 'Each item can have one starting quantity')
    .default([]),
});
export type GarageStepBody = z.infer<typeof garageStepBody>;

/**
 * POST /api/onboarding/units — the properties, all linked to the onboarding garage, each with a
 * stock row per item; saving them completes setup ("Complete Setup"). With `fill_to_minimum`
 * ("Fill all properties to their minimum from storage") each property's rows are then restocked
 * to their items' minimum threshold from the garage, as far as the garage holds
 * (docs/decisions/027-first-day-setup.md).
 */
export const unitsStepBody = z.strictObject({
  units: z
    .array(
      z.strictObject({
        name: requiredText('Name', 'Please fill in all required fields'),
        address: requiredText('Address', 'Please fill in all required fields'),
      }),
    )
    .min(1, 'Please add at least one property')
    .max(MAX_ONBOARDING_ROWS, `At most ${MAX_ONBOARDING_ROWS} properties`),
  fill_to_minimum: z.boolean('Fill to minimum must be true or false').default(false),
});
export type UnitsStepBody = z.infer<typeof unitsStepBody>;

/**
 * Answer of the units step: how many properties it created, what moved from the garage to fill
 * them (pieces per item, all properties together) and what the garage could not cover.
 */
export const unitsStepResult = z.object({
  count: z.number().int(),
  moved: restockToMinimumResult.shape.moved,
  short: restockToMinimumResult.shape.short,
});
export type UnitsStepResult = z.infer<typeof unitsStepResult>;

/**
 * GET /api/onboarding/setup — what the steps saved so far, so that a reopened step shows it and
 * edits it: the items, and the onboarding garage with its stock per item (null before the
 * storage step).
 */
export const onboardingSetup = z.object({
  items: z.array(item),
  garage: z
    .object({
      id: z.string(),
      name: z.string(),
      address: z.string(),
      stock: z.array(z.object({ item_id: z.string(), quantity: z.number().int() })),
    })
    .nullable(),
});
export type OnboardingSetup = z.infer<typeof onboardingSetup>;
