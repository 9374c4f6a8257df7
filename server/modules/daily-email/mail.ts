/**
 * The morning email's texts (docs/product.md "Daily email"): a plain-text part, which every mail
 * reader shows, and the same content as simple HTML, every name escaped. The unsubscribe link
 * goes in the body and in the List-Unsubscribe headers (RFC 2369; RFC 8058's one-click POST,
 * which mail providers send to the API route without a person or a browser).
 */
import { utc } from '@date-fns/utc';
import { format } from 'date-fns';
import type { PickListAnswer } from '../../../common/contracts/forecast';
import { itemNames, lineShortfalls } from '../../../common/pick-list';
import type { MailMessage } from '../../integrations/mail';
import type { DailyDigest } from './content';

/** What one email shows: the company's digest, its pick lists, and where the links go. */
export interface DailyEmailContent {
  digest: DailyDigest;
  /** The garages' pick lists for tomorrow that have something to take, by garage name. */
  pickLists: PickListAnswer[];
  /** The app's origin (APP_URL). */
  appUrl: string;
}

/** A calendar day 'YYYY-MM-DD' as "Thu Nov 26". */
export function dayTitle(day: string): string {
  return format(new Date(`${day}T00:00:00Z`), 'EEE MMM d', { in: utc });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `text` with the five characters HTML gives a meaning escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The page of the unsubscribe link: the token after `#`, so it never reaches a request log. */
export function unsubscribePageLink(appUrl: string, token: string): string {
  return `${new URL('/unsubscribe', appUrl).toString()}#${token}`;
}

/** The one-click unsubscribe URL (RFC 8058) of the List-Unsubscribe header. */
export function oneClickLink(appUrl: string, token: string): string {
  const url = new URL('/api/daily-email/unsubscribe', appUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

/** The email's subject, e.g. "Seaside Stays — tomorrow, Thu Nov 26: 4 arrivals". */
export function dailySubject(digest: DailyDigest): string {
  return `${digest.company} — tomorrow, ${dayTitle(digest.tomorrow)}: ${plural(digest.arrivals.length, 'arrival')}`;
}

/** One section of the email: a title and its lines, each line a text and its HTML. */
interface Section {
  title: string;
  lines: { text: string; html: string }[];
}

function sections({ digest, pickLists }: DailyEmailContent): Section[] {
  const arrivals: Section = {
    title: `Tomorrow's arrivals (${digest.arrivals.length})`,
    lines:
      digest.arrivals.length === 0
        ? [{ text: 'No arrivals tomorrow.', html: 'No arrivals tomorrow.' }]
        : digest.arrivals.map((a) => {
            const tail = `${plural(a.guests, 'guest')}, ${plural(a.nights, 'night')}`;
            return { text: `- ${a.unit_name}: ${tail}`, html: `<strong>${escapeHtml(a.unit_name)}</strong>: ${tail}` };
          }),
  };
  const picks: Section[] = pickLists.map((list) => {
    const shortOf = lineShortfalls(list);
    const nameOf = itemNames(list);
    return {
      title: `Pick list: ${list.garage_name}`,
      lines: list.properties.map((p) => {
        const lines = p.lines.map((l) => {
          const short = shortOf(p.unit_id, l.item_id);
          return { name: nameOf(l.item_id), what: `bring ${l.bring}${short > 0 ? ` (${short} short in the garage)` : ''}` };
        });
        return {
          text: [`- ${p.unit_name}:`, ...(lines.length === 0 ? ['    nothing to bring'] : lines.map((l) => `    ${l.name}: ${l.what}`))].join('\n'),
          html:
            `<strong>${escapeHtml(p.unit_name)}</strong>: ` +
            (lines.length === 0 ? 'nothing to bring' : lines.map((l) => `${escapeHtml(l.name)}: ${l.what}`).join('; ')),
        };
      }),
    };
  });
  const more = digest.criticalTotal - digest.critical.length;
  const critical: Section = {
    title: `Critical now (${digest.criticalTotal})`,
    lines:
      digest.criticalTotal === 0
        ? [{ text: 'Nothing is critical.', html: 'Nothing is critical.' }]
        : [
            ...digest.critical.map((c) => {
              const where = c.location_type === 'garage' ? ' (garage)' : '';
              return {
                text: `- ${c.item} at ${c.location}${where}: ${c.quantity}`,
                html: `${escapeHtml(c.item)} at <strong>${escapeHtml(c.location)}</strong>${where}: ${c.quantity}`,
              };
            }),
            ...(more > 0 ? [{ text: `…and ${more} more.`, html: `…and ${more} more.` }] : []),
          ],
  };
  return [arrivals, ...picks, critical];
}

/**
 * The email to `to`, with `unsubscribeToken` (unsubscribe-token.ts) in its unsubscribe link and
 * headers.
 */
export function dailyMail(content: DailyEmailContent, to: string, unsubscribeToken: string): MailMessage {
  const { digest, appUrl } = content;
  const dashboard = new URL('/', appUrl).toString();
  const unsubscribe = unsubscribePageLink(appUrl, unsubscribeToken);
  const intro = `Good morning. Here is ${digest.company} for tomorrow, ${dayTitle(digest.tomorrow)}.`;
  const why = `You get this email because you turned on the morning email for ${digest.company}.`;
  const parts = sections(content);
  const text = [
    intro,
    ...parts.map((s) => [s.title, ...s.lines.map((l) => l.text)].join('\n')),
    `Open Inventory Manager: ${dashboard}`,
    `${why} Turn it off: ${unsubscribe}`,
  ].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; color: #0f172a">',
    `<p>${escapeHtml(intro)}</p>`,
    ...parts.map((s) => `<h2 style="font-size: 16px">${escapeHtml(s.title)}</h2><ul>${s.lines.map((l) => `<li>${l.html}</li>`).join('')}</ul>`),
    `<p><a href="${escapeHtml(dashboard)}">Open Inventory Manager</a></p>`,
    `<p style="color: #64748b; font-size: 12px">${escapeHtml(why)} <a href="${escapeHtml(unsubscribe)}">Turn it off</a></p>`,
    '</body></html>',
  ].join('\n');
  return {
    to,
    subject: dailySubject(digest),
    text,
    html,
    headers: { 'List-Unsubscribe': `<${oneClickLink(appUrl, unsubscribeToken)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
