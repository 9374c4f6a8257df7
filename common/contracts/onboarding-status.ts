/**
 * GET /api/onboarding/status — whether the tenant still needs onboarding, and its step
 * (docs/product.md "Server rules", "Screens: Onboarding"). Steps in order: company, items, garage
 * (label Storage), units (label Properties). The steps' bodies are in onboarding.ts.
 *
 * Apart from them, and written with `zod/mini`, because the dashboard reads this answer before
 * its first paint (common/contracts/session.ts, decision 016).
 */
import * as z from 'zod/mini';

export const onboardingSteps = ['company', 'items', 'garage', 'units'] as const;
export type OnboardingStep = (typeof onboardingSteps)[number];

export const onboardingStatus = z.object({
  needs_onboarding: z.boolean(),
  current_step: z.enum(onboardingSteps),
});
export type OnboardingStatus = z.infer<typeof onboardingStatus>;
