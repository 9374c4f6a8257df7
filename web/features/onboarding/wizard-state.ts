/**
 * The onboarding wizard's state kept on the device (docs/product.md "Entities"): per step whether it is completed
 * and its form values, the values the server accepted, and the current step. It is saved on every
 * change so a reload loses no input, and kept per user so people sharing a phone never see each
 * other's entries.
 */
import { z } from 'zod';
import {
  companyStepBody,
  garageStepBody,
  itemsStepBody,
  type CompanyStepBody,
  type GarageStepBody,
  type ItemsStepBody,
} from '../../../common/contracts/onboarding';
import { onboardingSteps, type OnboardingStep } from '../../../common/contracts/onboarding-status';
import {
  companyDraft,
  emptyItem,
  emptyUnit,
  garageDraft,
  itemsDraft,
  unitsDraft,
  type CompanyDraft,
  type GarageDraft,
  type ItemsDraft,
  type UnitsDraft,
} from './forms';

export interface StepDrafts {
  company: CompanyDraft;
  items: ItemsDraft;
  garage: GarageDraft;
  units: UnitsDraft;
}

/** What the server accepted so far; the units step ends the wizard, so it is never kept. */
export interface SavedData {
  company?: CompanyStepBody;
  items?: ItemsStepBody;
  garage?: GarageStepBody;
}

export interface WizardState {
  steps: { [S in OnboardingStep]: { completed: boolean; data: StepDrafts[S] } };
  data: SavedData;
  currentStep: OnboardingStep;
}

const stepState = <T extends z.ZodType>(draft: T) => z.object({ completed: z.boolean(), data: draft });

const storedState: z.ZodType<WizardState> = z.object({
  steps: z.object({
    company: stepState(companyDraft),
    items: stepState(itemsDraft),
    garage: stepState(garageDraft),
    units: stepState(unitsDraft),
  }),
  data: z.object({
    company: companyStepBody.optional(),
    items: itemsStepBody.optional(),
    garage: garageStepBody.optional(),
  }),
  currentStep: z.enum(onboardingSteps),
});

/** A fresh wizard: nothing completed, one empty item row and one empty property row. */
export function initialWizardState(): WizardState {
  return {
    steps: {
      company: { completed: false, data: { company_name: '' } },
      items: { completed: false, data: { items: [{ ...emptyItem }] } },
      garage: { completed: false, data: { name: '', address: '', stock: [] } },
      units: { completed: false, data: { units: [{ ...emptyUnit }], fill_to_minimum: true } },
    },
    data: {},
    currentStep: 'company',
  };
}

function storageKey(userId: string): string {
  return `inventory-manager.onboarding.${userId}`;
}

/** The user's saved wizard, or a fresh one when nothing (or nothing readable) is stored. */
export function loadWizardState(userId: string): WizardState {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    if (raw) {
      const parsed = storedState.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
    }
  } catch {
    // Storage blocked (private mode) or malformed JSON: start afresh.
  }
  return initialWizardState();
}

/** Saves the user's wizard; where storage is unavailable the wizard still works for the visit. */
export function saveWizardState(userId: string, state: WizardState): void {
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(state));
  } catch {
    // Nothing to do: the state lives on in memory.
  }
}
