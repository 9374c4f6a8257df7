/**
 * Onboarding API contracts: the steps' bodies (docs/product.md "Screens: Onboarding", "States
 * and transitions" and "Validation rules"). The steps and the status: onboarding-status.ts.
 */
import { z } from 'zod';
import { money, requiredText, wholeNumber } from './fields';
import { itemNameTaken, repeatedItemName } from './stock';

/** POST /api/onboarding/company — creates the tenant with its trial; the caller becomes owner. */
export const companyStepBody = z.object({ company_name: requiredText('Company name', 'Please enter a company name') });
export type CompanyStepBody = z.infer<typeof companyStepBody>;

export const onboardingItem = z.object({
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

/** POST /api/onboarding/items — replaces the items saved by an earlier submit of this step; each name at most once. */
export const itemsStepBody = z.object({
  items: z.array(onboardingItem).max(MAX_ONBOARDING_ROWS, `At most ${MAX_ONBOARDING_ROWS} items`).superRefine(uniqueItemNames),
});
export type ItemsStepBody = z.infer<typeof itemsStepBody>;

/** POST /api/onboarding/garage — the onboarding storage location (created or updated). */
export const garageStepBody = z.object({
  name: requiredText('Name', 'Please fill in all required fields'),
  address: requiredText('Address', 'Please fill in all required fields'),
});
export type GarageStepBody = z.infer<typeof garageStepBody>;

/**
 * POST /api/onboarding/units — the properties, all linked to the onboarding garage, each with a
 * stock row of quantity 0 per item; saving them completes setup ("Complete Setup").
 */
export const unitsStepBody = z.object({
  units: z
    .array(
      z.object({
        name: requiredText('Name', 'Please fill in all required fields'),
        address: requiredText('Address', 'Please fill in all required fields'),
      }),
    )
    .min(1, 'Please add at least one property')
    .max(MAX_ONBOARDING_ROWS, `At most ${MAX_ONBOARDING_ROWS} properties`),
});
export type UnitsStepBody = z.infer<typeof unitsStepBody>;
