/**
 * The morning email and the company's time zone (docs/product.md "Daily email"): a member's
 * setting, the company's IANA time zone its days are counted in, and the signed link that turns
 * the email off without signing in.
 */
import { z } from 'zod';

/** GET and PUT /api/me/daily-email: the signed-in member's setting and when the email goes out. */
export const dailyEmailSetting = z.object({
  enabled: z.boolean(),
  /** The company's IANA time zone, e.g. 'Europe/Lisbon'. */
  time_zone: z.string(),
  /** The hour (0–23) of the company's morning the email is sent at. */
  send_hour: z.number().int(),
});
export type DailyEmailSetting = z.infer<typeof dailyEmailSetting>;

export const dailyEmailBody = z.strictObject({ enabled: z.boolean({ error: 'Enabled must be true or false' }) });
export type DailyEmailBody = z.infer<typeof dailyEmailBody>;

/** Longest time zone name accepted (the IANA database's longest is 32 characters). */
export const MAX_TIME_ZONE_LENGTH = 64;

/** The message of a time zone the server does not know (docs/product.md "Messages"). */
export const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone such as Europe/Lisbon';

/** PUT /api/company/time-zone. Whether the zone exists is checked by the server's time zone database. */
export const companyTimeZoneBody = z.strictObject({
  time_zone: z.string({ error: TIME_ZONE_MESSAGE }).trim().min(1, TIME_ZONE_MESSAGE).max(MAX_TIME_ZONE_LENGTH, TIME_ZONE_MESSAGE),
});
export type CompanyTimeZoneBody = z.infer<typeof companyTimeZoneBody>;

export const companyTimeZone = z.object({ time_zone: z.string() });
export type CompanyTimeZone = z.infer<typeof companyTimeZone>;

/**
 * POST /api/daily-email/unsubscribe: the token of the email's link, in the JSON body (the web
 * page) or in the query (the one-click unsubscribe of RFC 8058, whose form body is not ours).
 */
export const unsubscribeBody = z.strictObject({ token: z.string().max(500).optional() });
export const unsubscribeQuery = z.strictObject({ token: z.string().max(500).optional() });

export const unsubscribeResult = z.object({
  /** The address that will no longer get the email. */
  email: z.string(),
  company_name: z.string(),
});
export type UnsubscribeResult = z.infer<typeof unsubscribeResult>;
