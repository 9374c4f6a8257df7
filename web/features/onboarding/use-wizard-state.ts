/** The onboarding wizard's device-local state as React state, saved on every change. */
import { useCallback, useEffect, useState } from 'react';
import type { OnboardingStep } from '../../../common/contracts/onboarding-status';
import { initialWizardState, loadWizardState, saveWizardState, type SavedData, type StepDrafts, type WizardState } from './wizard-state';

export interface Wizard {
  state: WizardState;
  /** Keeps the inputs of `step` as typed. */
  saveDraft: <S extends OnboardingStep>(step: S, draft: StepDrafts[S]) => void;
  /** Marks `step` completed, recording what the server accepted for it. */
  completeStep: <S extends keyof SavedData>(step: S, saved: SavedData[S]) => void;
  setCurrentStep: (step: OnboardingStep) => void;
  /** Back to a fresh wizard, once setup is complete. */
  reset: () => void;
}

/** Loads the wizard of `userId` from the device and keeps it saved there. */
export function useWizardState(userId: string): Wizard {
  const [state, setState] = useState(() => loadWizardState(userId));

  useEffect(() => saveWizardState(userId, state), [userId, state]);

  const saveDraft = useCallback(<S extends OnboardingStep>(step: S, draft: StepDrafts[S]) => {
    setState((prev) => ({ ...prev, steps: { ...prev.steps, [step]: { ...prev.steps[step], data: draft } } }));
  }, []);

  const completeStep = useCallback(<S extends keyof SavedData>(step: S, saved: SavedData[S]) => {
    setState((prev) => ({
      ...prev,
      steps: { ...prev.steps, [step]: { ...prev.steps[step], completed: true } },
      data: { ...prev.data, [step]: saved },
    }));
  }, []);

  const setCurrentStep = useCallback((step: OnboardingStep) => {
    setState((prev) => (prev.currentStep === step ? prev : { ...prev, currentStep: step }));
  }, []);

  const reset = useCallback(() => setState(initialWizardState()), []);

  return { state, saveDraft, completeStep, setCurrentStep, reset };
}
