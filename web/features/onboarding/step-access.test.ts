import { describe, expect, it } from 'vitest';
import { completedSteps, firstIncompleteStep, isOnboardingStep, isStepAccessible, nextStep, resolveCurrentStep } from './step-access';
import { initialWizardState, type WizardState } from './wizard-state';

function withCompleted(...steps: (keyof WizardState['steps'])[]): WizardState {
  const state = initialWizardState();
  for (const step of steps) state.steps[step].completed = true;
  return state;
}

describe('onboarding step access (docs/product.md "States and transitions")', () => {
  it('knows the four steps in order', () => {
    expect(isOnboardingStep('garage')).toBe(true);
    expect(isOnboardingStep('storage')).toBe(false);
    expect(isOnboardingStep(undefined)).toBe(false);
    expect(nextStep('company')).toBe('items');
    expect(nextStep('units')).toBeNull();
  });

  it('counts steps before the server step as done, plus those completed on the device', () => {
    const done = completedSteps({ needs_onboarding: true, current_step: 'garage' }, withCompleted('garage'));
    expect([...done].sort()).toEqual(['company', 'garage', 'items']);
  });

  it('opens the first step always and any other only after the one before it', () => {
    const done = completedSteps({ needs_onboarding: true, current_step: 'items' }, initialWizardState());
    expect(isStepAccessible('company', done)).toBe(true);
    expect(isStepAccessible('items', done)).toBe(true);
    expect(isStepAccessible('garage', done)).toBe(false);
    expect(firstIncompleteStep(done)).toBe('items');
    expect(firstIncompleteStep(new Set())).toBe('company');
  });

  it("takes the server's step unless the device already completed it", () => {
    const server = { needs_onboarding: true, current_step: 'items' } as const;
    expect(resolveCurrentStep(server, initialWizardState())).toBe('items');
    expect(resolveCurrentStep(server, withCompleted('items'))).toBe('garage');
  });
});
