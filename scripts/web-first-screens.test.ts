/** index.html's first-screens script: what it preloads and which requests it sends, by path (decision 016). */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { preloaderSource, SESSION_REQUEST, type FirstScreenStart } from './web-first-screens';

const files = { '/login': ['assets/login-a1.js'], '/': ['assets/shell-b2.js', 'assets/dashboard-c3.js'] };
const start: Record<string, FirstScreenStart> = {
  '/login': { requests: [], formatsDates: false },
  '/': { requests: ['/api/dashboard', '/api/me'], formatsDates: true },
};

/**
 * Runs the script at `pathname` in a page whose server answers the session read with `session`
 * (null: nobody signed in); returns what it fetched, preloaded and left for the app, and whether
 * it used Intl's date formatting.
 */
async function openPage(pathname: string, session: unknown) {
  const fetched: string[] = [];
  const links: { rel: string; href: string; crossOrigin: string }[] = [];
  const timers: (() => void)[] = [];
  let formattedDate = false;
  const window: { firstScreenRequests?: Record<string, Promise<Response | null>> } = {};
  class PageDate extends Date {
    override toLocaleString() {
      formattedDate = true;
      return '';
    }
  }
  runInNewContext(preloaderSource(files, start), {
    Date: PageDate,
    window,
    location: { pathname },
    setTimeout: (run: () => void) => timers.push(run),
    document: {
      createElement: () => ({}),
      head: { appendChild: (link: (typeof links)[number]) => links.push(link) },
    },
    fetch: async (url: string, init: RequestInit) => {
      expect(init.credentials).toBe('include');
      fetched.push(url);
      return new Response(JSON.stringify(url === SESSION_REQUEST ? session : { url }));
    },
  });
  const answers = await Promise.all(Object.entries(window.firstScreenRequests ?? {}).map(async ([path, answer]) => [path, await answer] as const));
  timers.forEach((run) => run());
  return { fetched, links, answers: new Map(answers), formattedDate, left: window.firstScreenRequests };
}

describe('the first screens’ script', () => {
  it('on the dashboard, signed in: reads the session, sends the screen’s requests and readies Intl', async () => {
    const page = await openPage('/', { user: { id: 'u1' }, session: { id: 's1' } });
    expect(page.fetched).toEqual([SESSION_REQUEST, '/api/dashboard', '/api/me']);
    expect([...page.answers.keys()]).toEqual([SESSION_REQUEST, '/api/dashboard', '/api/me']);
    expect(await page.answers.get('/api/me')!.json()).toEqual({ url: '/api/me' });
    // The app still reads the session's answer itself.
    expect(await page.answers.get(SESSION_REQUEST)!.json()).toMatchObject({ user: { id: 'u1' } });
    expect(page.links).toEqual([
      { rel: 'modulepreload', crossOrigin: '', href: '/assets/shell-b2.js' },
      { rel: 'modulepreload', crossOrigin: '', href: '/assets/dashboard-c3.js' },
    ]);
    expect(page.formattedDate).toBe(true);
  });

  it('on the dashboard, signed out: reads only the session; the screen’s requests are null', async () => {
    const page = await openPage('/', null);
    expect(page.fetched).toEqual([SESSION_REQUEST]);
    expect(page.answers.get('/api/dashboard')).toBeNull();
    expect(page.formattedDate).toBe(false);
  });

  it('on /login: reads the session and preloads the form', async () => {
    const page = await openPage('/login', null);
    expect(page.fetched).toEqual([SESSION_REQUEST]);
    expect(page.links.map((l) => l.href)).toEqual(['/assets/login-a1.js']);
    expect(page.formattedDate).toBe(false);
  });

  it('elsewhere: does nothing', async () => {
    const page = await openPage('/units', null);
    expect(page).toMatchObject({ fetched: [], links: [], left: undefined });
  });
});
