/**
 * /onboarding/:step: one step of the wizard with the progress indicator. Setup already done ->
 * /; a step that cannot be opened yet -> the first incomplete step (docs/product.md "Screens: Onboarding", "States and transitions").
 * The steps after the company's open with what the server saved (docs/decisions/027-first-day-setup.md).
 */
import { useEffect } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import type { OnboardingSetup } from '../../../common/contracts/onboarding';
import type { OnboardingStatus, OnboardingStep } from '../../../common/contracts/onboarding-status';
import { LoadError } from '../../components/ui/LoadError';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useOnboardingStatus } from '../../lib/queries/get-onboarding-status';
import { useSignedInUser } from '../../lib/use-auth-state';
import { useSetup } from './api/get-setup';
import { ProgressSteps } from './components/ProgressSteps';
import { garageDraftFrom, itemsDraftFrom } from './saved-setup';
import { completedSteps, firstIncompleteStep, isOnboardingStep, isStepAccessible, nextStep } from './step-access';
import { CompanyStep } from './steps/CompanyStep';
import { GarageStep } from './steps/GarageStep';
import { ItemsStep } from './steps/ItemsStep';
import { UnitsStep } from './steps/UnitsStep';
import { useWizardState, type Wizard } from './use-wizard-state';

interface StepViewProps {
  step: OnboardingStep;
  server: OnboardingStatus;
  /** What the steps saved; loaded for every step but the company's. */
  saved: OnboardingSetup | undefined;
  wizard: Wizard;
}

const nothingSaved: OnboardingSetup = { items: [], garage: null };

/** The form of `step`, wired to the wizard's state and to the next step. */
function StepView({ step, server, saved = nothingSaved, wizard }: StepViewProps) {
  const navigate = useNavigate();
  const { state, saveDraft, completeStep, setCurrentStep, reset } = wizard;

  useEffect(() => setCurrentStep(step), [setCurrentStep, step]);

  const goOn = (from: OnboardingStep) => navigate(`/onboarding/${nextStep(from) ?? 'units'}`);

  switch (step) {
    case 'company':
      return (
        <CompanyStep
          draft={state.steps.company.data}
          onDraftChange={(draft) => saveDraft('company', draft)}
          companyExists={server.current_step !== 'company'}
          onDone={(saved) => {
            completeStep('company', saved);
            goOn('company');
          }}
        />
      );
    case 'items':
      return (
        <ItemsStep
          draft={itemsDraftFrom(state.steps.items.data, saved.items)}
          onDraftChange={(draft) => saveDraft('items', draft)}
          onDone={(saved) => {
            completeStep('items', saved);
            goOn('items');
          }}
        />
      );
    case 'garage':
      return (
        <GarageStep
          draft={garageDraftFrom(state.steps.garage.data, saved)}
          items={saved.items}
          onDraftChange={(draft) => saveDraft('garage', draft)}
          onDone={(saved) => {
            completeStep('garage', saved);
            goOn('garage');
          }}
        />
      );
    case 'units':
      return (
        <UnitsStep
          draft={state.steps.units.data}
          onDraftChange={(draft) => saveDraft('units', draft)}
          garageName={saved.garage?.name ?? state.data.garage?.name}
          saved={saved}
          onDone={() => {
            reset();
            navigate('/', { replace: true });
          }}
        />
      );
  }
}

/** The wizard screen for the step in the URL. */
export function OnboardingStepRoute() {
  const { step } = useParams();
  const user = useSignedInUser();
  const status = useOnboardingStatus();
  const wizard = useWizardState(user.id);
  const hasCompany = status.data !== undefined && status.data.current_step !== 'company' && step !== 'company';
  const setup = useSetup(hasCompany && status.data?.needs_onboarding === true);

  if (!status.data) return status.isError ? <LoadError onRetry={() => void status.refetch()} /> : <PageSpinner />;
  if (!status.data.needs_onboarding) return <Navigate to="/" replace />;
  const completed = completedSteps(status.data, wizard.state);
  if (!isOnboardingStep(step) || !isStepAccessible(step, completed)) {
    return <Navigate to={`/onboarding/${firstIncompleteStep(completed)}`} replace />;
  }
  // The form opens once with what was saved: its values are not replaced under the user's fingers.
  if (hasCompany && !setup.data) return setup.isError ? <LoadError onRetry={() => void setup.refetch()} /> : <PageSpinner />;
  return (
    <>
      <ProgressSteps current={step} completed={completed} />
      <StepView key={step} step={step} server={status.data} saved={setup.data} wizard={wizard} />
    </>
  );
}
