/**
 * Which onboarding steps are done and which may be opened (docs/product.md "States and transitions"), from the server's status
 * and the wizard's local state.
 */
import { onboardingSteps, type OnboardingStatus, type OnboardingStep } from '../../../common/contracts/onboarding-status';
import type { WizardState } from './wizard-state';

export type CompletedSteps = ReadonlySet<OnboardingStep>;

/** True when `value` names a step. */
export function isOnboardingStep(value: string | undefined): value is OnboardingStep {
  return (onboardingSteps as readonly string[]).includes(value ?? '');
}

/** The step after `step`, or null after the last. */
export function nextStep(step: OnboardingStep): OnboardingStep | null {
  return onboardingSteps[onboardingSteps.indexOf(step) + 1] ?? null;
}

/** Steps done: those completed on this device, and those before the server's current step. */
export function completedSteps(server: OnboardingStatus, local: WizardState): CompletedSteps {
  const serverIndex = onboardingSteps.indexOf(server.current_step);
  return new Set(onboardingSteps.filter((step, index) => index < serverIndex || local.steps[step].completed));
}

/** The first step may always be opened; any other once the one before it is done. */
export function isStepAccessible(step: OnboardingStep, completed: CompletedSteps): boolean {
  const index = onboardingSteps.indexOf(step);
  const previous = onboardingSteps[index - 1];
  return previous === undefined || completed.has(previous);
}

/** The first step not done yet; the last step when all are. */
export function firstIncompleteStep(completed: CompletedSteps): OnboardingStep {
  return onboardingSteps.find((step) => !completed.has(step)) ?? 'units';
}

/** The server's step, or the one after it when this device has already completed it. */
export function resolveCurrentStep(server: OnboardingStatus, local: WizardState): OnboardingStep {
  const step = server.current_step;
  return local.steps[step].completed ? (nextStep(step) ?? step) : step;
}
