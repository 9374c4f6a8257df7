/** The initial JavaScript budget's arithmetic over Vite's manifest (decision 016). */
import { describe, expect, it } from 'vitest';
import { initialFiles, measureScreens, type Manifest } from './web-budget';

/** Shaped like Vite's manifest: an entry, two lazy screens sharing a chunk, a lazily loaded library. */
const manifest: Manifest = {
  'index.html': { file: 'assets/index-a1.js', isEntry: true, imports: ['_react-b2.js'], dynamicImports: ['features/auth/LoginRoute.tsx', 'features/reports/ReportsRoute.tsx'] },
  '_react-b2.js': { file: 'assets/react-b2.js' },
  '_forms-c3.js': { file: 'assets/forms-c3.js', imports: ['_react-b2.js'] },
  'features/auth/LoginRoute.tsx': { file: 'assets/LoginRoute-d4.js', src: 'features/auth/LoginRoute.tsx', imports: ['_forms-c3.js', '_react-b2.js', 'index.html'] },
  'features/reports/ReportsRoute.tsx': { file: 'assets/ReportsRoute-e5.js', src: 'features/reports/ReportsRoute.tsx', imports: ['_charts-f6.js'] },
  '_charts-f6.js': { file: 'assets/charts-f6.js' },
  'styles.css': { file: 'assets/index-g7.css' },
};

const sizes: Record<string, number> = {
  'assets/index-a1.js': 5_000,
  'assets/react-b2.js': 80_000,
  'assets/forms-c3.js': 15_000,
  'assets/LoginRoute-d4.js': 1_000,
  'assets/ReportsRoute-e5.js': 7_000,
  'assets/charts-f6.js': 110_000,
};

describe('initial JavaScript of a screen', () => {
  it('is the entry and the screen with their static imports, each once, without other screens or dynamic imports', () => {
    expect(initialFiles(manifest, ['features/auth/LoginRoute.tsx']).sort()).toEqual([
      'assets/LoginRoute-d4.js',
      'assets/forms-c3.js',
      'assets/index-a1.js',
      'assets/react-b2.js',
    ]);
  });

  it('sums the gzip sizes and passes at the budget', () => {
    const [login] = measureScreens(manifest, (file) => sizes[file]!, { '/login': ['features/auth/LoginRoute.tsx'] }, 101_000);
    expect(login).toMatchObject({ screen: '/login', bytes: 101_000, withinBudget: true });
    expect(login!.files[0]).toEqual({ file: 'assets/react-b2.js', bytes: 80_000 });
  });

  it('fails a screen one byte over the budget', () => {
    const [reports] = measureScreens(manifest, (file) => sizes[file]!, { '/reports': ['features/reports/ReportsRoute.tsx'] }, 150_000);
    expect(reports).toMatchObject({ bytes: 202_000, withinBudget: false });
    const [login] = measureScreens(manifest, (file) => sizes[file]!, { '/login': ['features/auth/LoginRoute.tsx'] }, 100_999);
    expect(login!.withinBudget).toBe(false);
  });

  it('refuses a screen whose module is not a chunk of the build', () => {
    expect(() => initialFiles(manifest, ['features/dashboard/DashboardRoute.tsx'])).toThrow(/DashboardRoute.tsx is not a chunk/);
  });
});
