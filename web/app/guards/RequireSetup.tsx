/**
 * Layout route for the screens of the shell: a company whose setup is not complete, or a user
 * without one, is taken to setup (docs/product.md "Screens: Onboarding"), which opens its current
 * step. The screen renders while the status loads, so its own requests go out alongside the status
 * instead of after it (decision 016); a status that cannot be loaded leaves the screen as it is.
 */
import { Navigate, Outlet } from 'react-router';
import { useOnboardingStatus } from '../../lib/queries/get-onboarding-status';

/** Renders the nested route, or leads to /onboarding when setup is needed. */
export function RequireSetup() {
  const status = useOnboardingStatus();
  if (status.data?.needs_onboarding) return <Navigate to="/onboarding" replace />;
  return <Outlet />;
}
