/**
 * The email sent to a company's admins and owners when one of its webhook endpoints is disabled
 * after days of failed deliveries (docs/product.md "Webhooks"), plain text.
 */
import type { MailMessage } from '../../integrations/mail';

/** The email to `to` that `company`'s endpoint at `url` failed for `days` days and was disabled. */
export function endpointDisabledMail(opts: { to: string; company: string; url: string; days: number; appUrl: string }): MailMessage {
  return {
    to: opts.to,
    subject: `A webhook endpoint of ${opts.company} was disabled`,
    text:
      `Every delivery to the webhook endpoint ${opts.url} of ${opts.company} has failed for ${opts.days} days, ` +
      `so it was disabled and receives no events until it is enabled again.\n\n` +
      `Its delivery log shows why each attempt failed. Once the endpoint answers again, enable it on the Webhooks screen:\n` +
      `${new URL('/webhooks', opts.appUrl).toString()}\n`,
  };
}
