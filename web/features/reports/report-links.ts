/**
 * Which links a report's text may keep (docs/decisions/012-report-injections.md): only those
 * that stay on the application's own origin.
 */

/**
 * `href` resolved against `base` (the page's URL, e.g. 'https://app.example/reports') when the
 * result is on the origin of `base` — a relative link ('/units', '#top', 'units?x=1') or an
 * absolute one to the same scheme, host and port — as an absolute URL; else null. Protocol-relative links
 * ('//evil.example'), other schemes (javascript:, data:, mailto:) and hrefs the URL parser
 * refuses are all null. The absolute form leaves a browser nothing to reinterpret.
 */
export function sameOriginHref(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  return url.origin === new URL(base).origin ? url.href : null;
}
