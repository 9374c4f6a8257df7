/** The route table of SPEC.md §2 with its redirects. */
import { createBrowserRouter, Navigate } from 'react-router';
import { LoginRoute } from '../features/auth/LoginRoute';
import { SignoutRoute } from '../features/auth/SignoutRoute';
import { SignupRoute } from '../features/auth/SignupRoute';
import { DashboardRoute } from '../features/dashboard/DashboardRoute';
import { GaragesRoute } from '../features/garages/GaragesRoute';
import { ItemsRoute } from '../features/items/ItemsRoute';
import { OnboardingIndexRoute } from '../features/onboarding/OnboardingIndexRoute';
import { OnboardingLayout } from '../features/onboarding/OnboardingLayout';
import { OnboardingStepRoute } from '../features/onboarding/OnboardingStepRoute';
import { SubscriptionRoute } from '../features/subscription/SubscriptionRoute';
import { AddUnitRoute } from '../features/units/AddUnitRoute';
import { UnitDetailRoute } from '../features/units/UnitDetailRoute';
import { UnitsRoute } from '../features/units/UnitsRoute';
import { UsersRoute } from '../features/users/UsersRoute';
import { RedirectIfSignedIn } from './guards/RedirectIfSignedIn';
import { RequireAuth } from './guards/RequireAuth';
import { UnknownPathRedirect } from './guards/UnknownPathRedirect';
import { AppShell } from './shell/AppShell';

/** Creates the browser router of the app. */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <RedirectIfSignedIn />,
      children: [
        { path: '/login', element: <LoginRoute /> },
        { path: '/signup', element: <SignupRoute /> },
      ],
    },
    { path: '/signout', element: <SignoutRoute /> },
    {
      element: <RequireAuth />,
      children: [
        {
          path: '/onboarding',
          element: <OnboardingLayout />,
          children: [
            { index: true, element: <OnboardingIndexRoute /> },
            { path: ':step', element: <OnboardingStepRoute /> },
          ],
        },
        {
          element: <AppShell />,
          children: [
            { index: true, element: <DashboardRoute /> },
            { path: '/dashboard', element: <Navigate to="/" replace /> },
            { path: '/units', element: <UnitsRoute /> },
            { path: '/unit/:unitId', element: <UnitDetailRoute /> },
            { path: '/add-unit', element: <AddUnitRoute /> },
            { path: '/garages', element: <GaragesRoute /> },
            { path: '/items', element: <ItemsRoute /> },
            {
              path: '/reports',
              // Charts and markdown are the heaviest libraries: they load with this screen only.
              lazy: () => import('../features/reports/ReportsRoute').then((m) => ({ Component: m.ReportsRoute })),
            },
            { path: '/users', element: <UsersRoute /> },
            { path: '/subscription', element: <SubscriptionRoute /> },
          ],
        },
      ],
    },
    { path: '*', element: <UnknownPathRedirect /> },
  ]);
}
