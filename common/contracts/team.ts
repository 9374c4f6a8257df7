/**
 * The team: members, invitations and roles (docs/product.md "Screens: Users", "Invitations",
 * docs/decisions/029-team-and-invitations.md).
 */
import { z } from 'zod';
import { roles } from './session';
import { requiredText } from './fields';
import { newPassword } from './password';

/** Days an invitation link stays valid; a resend starts them again. */
export const INVITATION_DAYS = 7;

/** Longest email address (RFC 5321's path limit), as sign-up allows. */
export const MAX_EMAIL_LENGTH = 254;

/** An email address, trimmed and lower-cased as accounts store it. */
export const emailField = z
  .string('Email is required')
  .trim()
  .min(1, 'Email is required')
  .max(MAX_EMAIL_LENGTH, `Email must be at most ${MAX_EMAIL_LENGTH} characters`)
  .pipe(z.email('Please enter a valid email address'))
  .transform((e) => e.toLowerCase());

/** The roles an invitation may give: ownership is handed over to a member, never invited. */
export const invitedRoles = ['admin', 'member'] as const;

export const teamMember = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  /** null when the stored role is not one the product knows ('Unknown' on screen). */
  role: z.enum(roles).nullable(),
  joined_at: z.string(),
  /** When the member's newest session was last renewed; null before any sign-in. */
  last_active_at: z.string().nullable(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const pendingInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(invitedRoles),
  expires_at: z.string(),
  invited_by: z.string(),
});
export type PendingInvitation = z.infer<typeof pendingInvitation>;

/** GET /api/users: the members, then the invitations not yet accepted, revoked or expired. */
export const teamResponse = z.object({ members: z.array(teamMember), invitations: z.array(pendingInvitation) });
export type TeamResponse = z.infer<typeof teamResponse>;

/** POST /api/invitations */
export const inviteBody = z.strictObject({
  email: emailField,
  role: z.enum(invitedRoles, 'Role must be Admin or Member'),
});
export type InviteBody = z.infer<typeof inviteBody>;

/** PATCH /api/users/:id */
export const roleChangeBody = z.strictObject({ role: z.enum(roles, 'Role must be Owner, Admin or Member') });
export type RoleChangeBody = z.infer<typeof roleChangeBody>;

/** The secret of an invitation link: 32 random bytes, base64url. */
export const invitationToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This invitation link is not valid.');

/** POST /api/invitations/preview and /accept */
export const invitationTokenBody = z.strictObject({ token: invitationToken });
export type InvitationTokenBody = z.infer<typeof invitationTokenBody>;

/** What an invitation link shows before it is accepted. */
export const invitationPreview = z.object({
  company_name: z.string(),
  inviter: z.string(),
  email: z.string(),
  role: z.enum(invitedRoles),
  /** True when an account with the invited email exists (it signs in and accepts instead). */
  has_account: z.boolean(),
});
export type InvitationPreview = z.infer<typeof invitationPreview>;

/** Longest password sign-in accepts (better-auth's default). */
export const MAX_PASSWORD_LENGTH = 128;

/** POST /api/invitations/join: a new account for the invited email, made from the link. */
export const joinBody = z.strictObject({
  token: invitationToken,
  name: requiredText('Name', 'Name is required'),
  password: newPassword.refine((p) => p.length <= MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
});
export type JoinBody = z.infer<typeof joinBody>;
