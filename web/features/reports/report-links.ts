/**
 * Which links a report's text may keep (docs/decisions/012-report-injections.md): only those
 * that stay on the application's own origin.
 */

/**
 * `href` resolved against `origin` (e.g. 'https://app.example') when the result is on that same
 * origin — a relative link ('/units', '#top', 'reports?x=1') or an absolute one to the same
 * scheme, host and port — as an absolute URL; else null. Protocol-relative links
 * ('//evil.example'), other schemes (javascript:, data:, mailto:) and hrefs the URL parser
 * refuses are all null. The absolute form leaves a browser nothing to reinterpret.
 */
export function sameOriginHref(href: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return null;
  }
  return url.origin === new URL(origin).origin ? url.href : null;
}
