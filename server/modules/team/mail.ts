/**
 * The texts of the team's emails, plain text (docs/decisions/029-team-and-invitations.md). The
 * invitation's secret goes after `#` in the link: a fragment never reaches a server's request
 * log, ours or a proxy's; the page reads it and sends it in a request body.
 */
import type { MailMessage } from '../../integrations/mail';
import { INVITATION_DAYS } from '../../../common/contracts/team';
import { roleNames } from '../../../common/permissions';

/** The link of an invitation whose secret is `token`, on the app at `appUrl`. */
export function invitationLink(appUrl: string, token: string): string {
  return `${new URL('/invite', appUrl).toString()}#${token}`;
}

/** The invitation email to `to`, sent by `inviter` (name or email) for `company`. */
export function invitationMail(opts: { to: string; inviter: string; company: string; role: 'admin' | 'member'; link: string }): MailMessage {
  return {
    to: opts.to,
    subject: `${opts.inviter} invited you to ${opts.company} on Inventory Manager`,
    text:
      `${opts.inviter} invited you to join ${opts.company} on Inventory Manager as ${roleNames[opts.role]}.\n\n` +
      `Accept the invitation by opening this link:\n${opts.link}\n\n` +
      `The link is valid for ${INVITATION_DAYS} days and can be used once. If you did not expect this invitation, ignore this message.`,
  };
}
