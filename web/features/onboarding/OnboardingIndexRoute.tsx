/**
 * /onboarding: opens the wizard at its current step — the server's step, or the next one when
 * this device already completed it (docs/product.md "States and transitions"); for a new account that is /onboarding/company.
 */
import { Navigate } from 'react-router';
import { LoadError } from '../../components/ui/LoadError';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useOnboardingStatus } from '../../lib/queries/get-onboarding-status';
import { useSignedInUser } from '../../lib/use-auth-state';
import { resolveCurrentStep } from './step-access';
import { loadWizardState } from './wizard-state';

/** Redirects to the current step, or to / when setup is already complete. */
export function OnboardingIndexRoute() {
  const user = useSignedInUser();
  const status = useOnboardingStatus();
  if (!status.data) return status.isError ? <LoadError onRetry={() => void status.refetch()} /> : <PageSpinner />;
  if (!status.data.needs_onboarding) return <Navigate to="/" replace />;
  const step = resolveCurrentStep(status.data, loadWizardState(user.id));
  return <Navigate to={`/onboarding/${step}`} replace />;
}
