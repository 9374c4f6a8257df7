/** The route table loads each screen's code on demand, and the opening URL's screens at start (decision 016). */
import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => [] as string[]);
const screenModule = (name: string, exportName: string) => {
  loaded.push(name);
  return { [exportName]: () => null };
};
vi.mock('../lib/auth-client', () => ({ authClient: { useSession: () => ({ data: null, isPending: true }) } }));
vi.mock('./shell/AppShell', () => screenModule('shell', 'AppShell'));
vi.mock('../features/dashboard/DashboardRoute', () => screenModule('dashboard', 'DashboardRoute'));
vi.mock('../features/auth/LoginRoute', () => screenModule('login', 'LoginRoute'));
vi.mock('../features/units/UnitDetailRoute', () => screenModule('unit detail', 'UnitDetailRoute'));
vi.mock('../features/reports/ReportsRoute', () => screenModule('reports', 'ReportsRoute'));

const { pageTitle, preloadScreens } = await import('./router');

describe('screens loaded on demand', () => {
  it('loads no screen until one is asked for', () => {
    expect(loaded).toEqual([]);
  });

  it('loads the shell and the dashboard for /, the sign-in form for /login, nothing more', async () => {
    await preloadScreens('/');
    expect(loaded.sort()).toEqual(['dashboard', 'shell']);
    await preloadScreens('/login');
    expect(loaded.sort()).toEqual(['dashboard', 'login', 'shell']);
    await preloadScreens('/unit/6f1c');
    expect(loaded).toContain('unit detail');
    expect(loaded).not.toContain('reports');
  });
});

describe('page titles', () => {
  it('names the screen, then the product', () => {
    expect(pageTitle('/units')).toBe('Units · Inventory Manager');
    expect(pageTitle('/')).toBe('Dashboard · Inventory Manager');
    expect(pageTitle('/unit/6f1c')).toBe('Unit detail · Inventory Manager');
    expect(pageTitle('/login')).toBe('Sign in · Inventory Manager');
    expect(pageTitle('/onboarding/garage')).toBe('Setup · Inventory Manager');
  });

  it('gives every screen its own title', () => {
    const paths = ['/login', '/signup', '/onboarding/company', '/', '/units', '/unit/1', '/add-unit', '/garages', '/items', '/reports', '/users', '/api-keys', '/webhooks', '/subscription'];
    expect(new Set(paths.map(pageTitle)).size).toBe(paths.length);
  });

  it('falls back to the product name where no screen is named', () => {
    expect(pageTitle('/no-such-page')).toBe('Inventory Manager');
  });
});
