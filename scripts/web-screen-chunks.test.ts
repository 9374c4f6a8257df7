/** Which modules make the first screens' chunks, and the check that no two chunks import each other (decision 016). */
import { describe, expect, it } from 'vitest';
import { chunkCycle, screenModules, type ModuleGraph } from './web-screen-chunks';

/** Shaped like the app: an entry, /login's form and the shell with the dashboard, sharing a button and an icon. */
const graph: ModuleGraph = new Map([
  ['main', ['router', 'spinner']],
  ['router', []],
  ['spinner', ['icon-factory']],
  ['icon-factory', []],
  ['LoginRoute', ['form-library', 'button', 'boxes-icon']],
  ['form-library', []],
  ['button', []],
  ['boxes-icon', ['icon-factory']],
  ['AppShell', ['sidebar', 'boxes-icon']],
  ['sidebar', ['api-fetch', 'spinner']],
  ['DashboardRoute', ['api-fetch', 'button', 'zod', 'AppShell']],
  ['api-fetch', ['zod']],
  ['zod', []],
]);

describe('the first screens’ modules', () => {
  const { shared, own } = screenModules(graph, ['main'], [['LoginRoute'], ['AppShell', 'DashboardRoute']]);

  it('gives each screen what it alone uses, without the entry’s modules or the route modules', () => {
    expect([...own[0]!].sort()).toEqual(['form-library']);
    expect([...own[1]!].sort()).toEqual(['api-fetch', 'sidebar', 'zod']);
  });

  it('puts what both use in the shared set', () => {
    expect([...shared].sort()).toEqual(['boxes-icon', 'button']);
  });
});

describe('chunks that import each other', () => {
  it('are found, with the way round', () => {
    const imports = new Map([
      ['index.js', ['react.js']],
      ['dashboard-screen.js', ['index.js', 'AppShell.js']],
      ['AppShell.js', ['dashboard-screen.js']],
      ['react.js', []],
    ]);
    expect(chunkCycle(imports)).toEqual(['dashboard-screen.js', 'AppShell.js', 'dashboard-screen.js']);
  });

  it('are not reported when the imports only go one way', () => {
    const imports = new Map([
      ['index.js', ['react.js']],
      ['dashboard-screen.js', ['index.js', 'react.js']],
      ['AppShell.js', ['dashboard-screen.js']],
      ['react.js', []],
    ]);
    expect(chunkCycle(imports)).toBeUndefined();
  });
});
