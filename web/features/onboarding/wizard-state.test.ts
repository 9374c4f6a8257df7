import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialWizardState, loadWizardState, saveWizardState } from './wizard-state';

describe('wizard state on the device', () => {
  beforeEach(() => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('starts with one empty item row and one empty property row', () => {
    const state = initialWizardState();
    expect(state.currentStep).toBe('company');
    expect(state.steps.items.data.items).toHaveLength(1);
    expect(state.steps.units.data.units).toHaveLength(1);
  });

  it('keeps each user their own wizard', () => {
    const state = initialWizardState();
    state.steps.company = { completed: true, data: { company_name: 'Seaside' } };
    state.data.company = { company_name: 'Seaside' };
    state.currentStep = 'items';
    saveWizardState('user-a', state);
    expect(loadWizardState('user-a')).toEqual(state);
    expect(loadWizardState('user-b')).toEqual(initialWizardState());
  });

  it('starts afresh when what is stored is unreadable', () => {
    localStorage.setItem('inventory-manager.onboarding.user-a', '{"steps":42');
    expect(loadWizardState('user-a')).toEqual(initialWizardState());
  });
});
