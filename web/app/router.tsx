/**
 * The route table with its redirects: /login, /signup, /signout, the signed-in screens inside the
 * shell, onboarding without it, and any other path to / or /login.
 *
 * Every screen's code is fetched when it is first shown (decision 016): a phone opening /login
 * downloads the sign-in form, not the reports' charts. The screens the opening URL needs are
 * fetched at start, together with the session, instead of one after the other as they render.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/ui/PageSpinner';
import { RedirectIfSignedIn } from './guards/RedirectIfSignedIn';
import { RequireAuth } from './guards/RequireAuth';
import { UnknownPathRedirect } from './guards/UnknownPathRedirect';

/** What a lazily loaded route keeps in its `handle`: starts fetching its module. */
interface ScreenHandle {
  preload: () => Promise<unknown>;
}

const RELOADED_AT = 'screen-reload-at';

/**
 * A screen's code failed to load, most likely because a new release replaced it: the page loads
 * the new release, once a minute at most so that a broken release cannot reload forever.
 * @throws the error, for the screen to fail as before when no reload happens.
 */
function reloadAfterFailedLoad(error: unknown): never {
  if (Date.now() - Number(sessionStorage.getItem(RELOADED_AT) ?? 0) >= 60_000) {
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    window.location.reload();
  }
  throw error;
}

/**
 * A route element whose component comes from `load` (a dynamic import), fetched at most once:
 * by `preload`, or when the route first renders (a spinner shows meanwhile).
 */
function screen(load: () => Promise<ComponentType>): Pick<RouteObject, 'element' | 'handle'> {
  let module: Promise<{ default: ComponentType }> | undefined;
  const preload = () => (module ??= load().then((Component) => ({ default: Component }), reloadAfterFailedLoad));
  const Screen = lazy(preload);
  const handle: ScreenHandle = { preload };
  return {
    element: (
      <Suspense fallback={<PageSpinner />}>
        <Screen />
      </Suspense>
    ),
    handle,
  };
}

/** The routes of the app; exported for the start-up preload and for tests. */
export const routes: RouteObject[] = [
  {
    element: <RedirectIfSignedIn />,
    children: [
      { path: '/login', ...screen(() => import('../features/auth/LoginRoute').then((m) => m.LoginRoute)) },
      { path: '/signup', ...screen(() => import('../features/auth/SignupRoute').then((m) => m.SignupRoute)) },
    ],
  },
  { path: '/signout', ...screen(() => import('../features/auth/SignoutRoute').then((m) => m.SignoutRoute)) },
  {
    element: <RequireAuth />,
    children: [
      {
        path: '/onboarding',
        ...screen(() => import('../features/onboarding/OnboardingLayout').then((m) => m.OnboardingLayout)),
        children: [
          { index: true, ...screen(() => import('../features/onboarding/OnboardingIndexRoute').then((m) => m.OnboardingIndexRoute)) },
          { path: ':step', ...screen(() => import('../features/onboarding/OnboardingStepRoute').then((m) => m.OnboardingStepRoute)) },
        ],
      },
      {
        ...screen(() => import('./shell/AppShell').then((m) => m.AppShell)),
        children: [
          { index: true, ...screen(() => import('../features/dashboard/DashboardRoute').then((m) => m.DashboardRoute)) },
          { path: '/dashboard', element: <Navigate to="/" replace /> },
          { path: '/units', ...screen(() => import('../features/units/UnitsRoute').then((m) => m.UnitsRoute)) },
          { path: '/unit/:unitId', ...screen(() => import('../features/units/UnitDetailRoute').then((m) => m.UnitDetailRoute)) },
          { path: '/add-unit', ...screen(() => import('../features/units/AddUnitRoute').then((m) => m.AddUnitRoute)) },
          { path: '/garages', ...screen(() => import('../features/garages/GaragesRoute').then((m) => m.GaragesRoute)) },
          { path: '/items', ...screen(() => import('../features/items/ItemsRoute').then((m) => m.ItemsRoute)) },
          { path: '/reports', ...screen(() => import('../features/reports/ReportsRoute').then((m) => m.ReportsRoute)) },
          { path: '/users', ...screen(() => import('../features/users/UsersRoute').then((m) => m.UsersRoute)) },
          { path: '/subscription', ...screen(() => import('../features/subscription/SubscriptionRoute').then((m) => m.SubscriptionRoute)) },
        ],
      },
    ],
  },
  { path: '*', element: <UnknownPathRedirect /> },
];

/**
 * Starts fetching the code of every screen that `pathname` shows (e.g. '/' -> the shell and the
 * dashboard), so it downloads while the session is read.
 */
export function preloadScreens(pathname: string): Promise<unknown[]> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(matches.map((match) => (match.route.handle as ScreenHandle | undefined)?.preload()));
}

/** Renders the route that matches the current location. */
export function AppRoutes() {
  return useRoutes(routes);
}
