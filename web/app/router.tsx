/**
 * The route table with its redirects: /login, /signup, /signout, the signed-in screens inside the
 * shell (before setup is complete they lead to /onboarding), onboarding without it, and any other
 * path to / or /login.
 *
 * Every screen's code is fetched when it is first shown (decision 016): a phone opening /login
 * downloads the sign-in form, not the reports' charts. The screens the opening URL needs are
 * fetched at start, together with the session, instead of one after the other as they render.
 */
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/ui/PageSpinner';
import { ImportListingsDialog, UpcomingStays } from './cross-feature';
import { RedirectIfSignedIn } from './guards/RedirectIfSignedIn';
import { RequireAuth } from './guards/RequireAuth';
import { UnknownPathRedirect } from './guards/UnknownPathRedirect';

/** What a screen's route keeps in its `handle`: starts fetching its module; names the screen. */
interface ScreenHandle {
  preload: () => Promise<unknown>;
  /** The screen's name in the page title, e.g. 'Units'; the shell and layouts have none. */
  title?: string;
}

const PRODUCT_NAME = 'Inventory Manager';

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
 * by `preload`, or when the route first renders (a spinner shows meanwhile). `title` names the
 * screen in the page title (pageTitle).
 */
function screen(title: string | undefined, load: () => Promise<ComponentType>): Pick<RouteObject, 'element' | 'handle'> {
  let module: Promise<{ default: ComponentType }> | undefined;
  const preload = () => (module ??= load().then((Component) => ({ default: Component }), reloadAfterFailedLoad));
  const Screen = lazy(preload);
  const handle: ScreenHandle = { preload, title };
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
      { path: '/login', ...screen('Sign in', () => import('../features/auth/LoginRoute').then((m) => m.LoginRoute)) },
      { path: '/signup', ...screen('Sign up', () => import('../features/auth/SignupRoute').then((m) => m.SignupRoute)) },
      { path: '/forgot-password', ...screen('Forgot password', () => import('../features/auth/ForgotPasswordRoute').then((m) => m.ForgotPasswordRoute)) },
    ],
  },
  { path: '/signout', ...screen('Signing out', () => import('../features/auth/SignoutRoute').then((m) => m.SignoutRoute)) },
  // Open to anyone: a new person joins there, a signed-in one accepts there.
  { path: '/invite', ...screen('Invitation', () => import('../features/auth/InviteRoute').then((m) => m.InviteRoute)) },
  { path: '/reset-password', ...screen('Reset password', () => import('../features/auth/ResetPasswordRoute').then((m) => m.ResetPasswordRoute)) },
  // Open to anyone: the morning email's link turns it off without signing in.
  { path: '/unsubscribe', ...screen('Unsubscribe', () => import('../features/auth/UnsubscribeRoute').then((m) => m.UnsubscribeRoute)) },
  {
    element: <RequireAuth />,
    children: [
      {
        path: '/onboarding',
        ...screen('Setup', () => import('../features/onboarding/OnboardingLayout').then((m) => m.OnboardingLayout)),
        children: [
          { index: true, ...screen(undefined, () => import('../features/onboarding/OnboardingIndexRoute').then((m) => m.OnboardingIndexRoute)) },
          { path: ':step', ...screen(undefined, () => import('../features/onboarding/OnboardingStepRoute').then((m) => m.OnboardingStepRoute)) },
        ],
      },
      {
        // Its code comes with the first screen of the shell, not with the sign-in form (decision 016).
        ...screen(undefined, () => import('./guards/RequireSetup').then((m) => m.RequireSetup)),
        children: [
          {
            ...screen(undefined, () => import('./shell/AppShell').then((m) => m.AppShell)),
            children: [
              { index: true, ...screen('Dashboard', () => import('../features/dashboard/DashboardRoute').then((m) => m.DashboardRoute)) },
              { path: '/dashboard', element: <Navigate to="/" replace /> },
              { path: '/units', ...screen('Units', () => import('../features/units/UnitsRoute').then((m) => () => <m.UnitsRoute ImportListings={ImportListingsDialog} />)) },
              { path: '/unit/:unitId', ...screen('Unit detail', () => import('../features/units/UnitDetailRoute').then((m) => () => <m.UnitDetailRoute UpcomingStays={UpcomingStays} />)) },
              { path: '/unit/:unitId/count', ...screen('Count', () => import('../features/count/CountRoute').then((m) => m.UnitCountRoute)) },
              { path: '/add-unit', ...screen('Add Unit', () => import('../features/units/AddUnitRoute').then((m) => m.AddUnitRoute)) },
              { path: '/forecast', ...screen('Forecast', () => import('../features/forecast/ForecastRoute').then((m) => m.ForecastRoute)) },
              { path: '/garages', ...screen('Garages', () => import('../features/garages/GaragesRoute').then((m) => m.GaragesRoute)) },
              { path: '/garages/:garageId/count', ...screen('Count', () => import('../features/count/CountRoute').then((m) => m.GarageCountRoute)) },
              { path: '/garages/:garageId/pick-list', ...screen('Pick list', () => import('../features/forecast/PickListRoute').then((m) => m.PickListRoute)) },
              { path: '/items', ...screen('Items', () => import('../features/items/ItemsRoute').then((m) => m.ItemsRoute)) },
              { path: '/reports', ...screen('Reports', () => import('../features/reports/ReportsRoute').then((m) => m.ReportsRoute)) },
              { path: '/users', ...screen('Users', () => import('../features/users/UsersRoute').then((m) => m.UsersRoute)) },
              { path: '/api-keys', ...screen('API keys', () => import('../features/api-keys/ApiKeysRoute').then((m) => m.ApiKeysRoute)) },
              { path: '/webhooks', ...screen('Webhooks', () => import('../features/webhooks/WebhooksRoute').then((m) => m.WebhooksRoute)) },
              { path: '/account', ...screen('Account', () => import('../features/auth/AccountRoute').then((m) => m.AccountRoute)) },
              { path: '/subscription', ...screen('Subscription', () => import('../features/subscription/SubscriptionRoute').then((m) => m.SubscriptionRoute)) },
              { path: '/pending-changes', ...screen('Changes on this phone', () => import('../features/pending-changes/PendingChangesRoute').then((m) => m.PendingChangesRoute)) },
            ],
          },
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

/**
 * The page title of `pathname`: its screen's name and the product's, e.g. 'Units · Inventory
 * Manager' (the innermost route with a title names it), or the product's alone. Browser tabs,
 * history and screen readers tell the screens apart by it.
 */
export function pageTitle(pathname: string): string {
  const matches = matchRoutes(routes, pathname) ?? [];
  const title = matches.map((match) => (match.route.handle as ScreenHandle | undefined)?.title).findLast(Boolean);
  return title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
}

/** Renders the route that matches the current location, and keeps the page title in step. */
export function AppRoutes() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = pageTitle(pathname);
  }, [pathname]);
  return useRoutes(routes);
}
