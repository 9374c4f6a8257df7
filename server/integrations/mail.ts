/**
 * Outgoing email through SMTP with nodemailer (docs/ARCHITECTURE.md "The parts"). Without an SMTP
 * URL every message, links included, is written to the server log instead, so a fresh install works
 * end to end.
 */
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header lines, e.g. List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Sends one message. @throws when the SMTP server refuses it. */
  send(message: MailMessage): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
}

/** Creates the mailer for `smtpUrl` (smtp:// or smtps://), or a log-only mailer when absent. */
export function createMailer(opts: { smtpUrl?: string; from: string; log: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(message) {
        opts.log.info({ mail: message }, `Email to ${message.to} (SMTP_URL not set, not sent):\n${message.text}`);
      },
    };
  }
  const smtpUrl = opts.smtpUrl;
  // nodemailer is loaded with the first email: a server without SMTP never holds it in memory.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
      await (await transport).sendMail({ from: opts.from, ...message });
    },
  };
}
