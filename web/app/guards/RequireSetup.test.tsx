/** Signed-in screens before setup is complete lead to setup; a set-up company sees them. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { OnboardingStatus } from '../../../common/contracts/onboarding-status';
import { onboardingStatusQuery } from '../../lib/queries/get-onboarding-status';
import { RequireSetup } from './RequireSetup';

/** Renders /units behind the guard with the status `status` already known (undefined: still loading). */
function renderUnits(status: OnboardingStatus | undefined): string {
  const queryClient = new QueryClient({ defaultOptions: { queries: { enabled: false, retry: false } } });
  if (status) queryClient.setQueryData(onboardingStatusQuery.queryKey, status);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/units']}>
        <Routes>
          <Route element={<RequireSetup />}>
            <Route path="/units" element={<p>units screen</p>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('RequireSetup', () => {
  it('does not show the screen to a company whose setup is not complete, nor to a user without one', () => {
    expect(renderUnits({ needs_onboarding: true, current_step: 'garage' })).not.toContain('units screen');
    expect(renderUnits({ needs_onboarding: true, current_step: 'company' })).not.toContain('units screen');
  });

  it('shows the screen once setup is complete, and while the status loads', () => {
    expect(renderUnits({ needs_onboarding: false, current_step: 'units' })).toContain('units screen');
    expect(renderUnits(undefined)).toContain('units screen');
  });
});
