/**
 * HTTP routes of the team (docs/product.md "Screens: Users", "Invitations";
 * docs/decisions/029-team-and-invitations.md): the Users screen's list, invitations, role changes
 * and removals, and the three requests of an invitation link.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../common/contracts/fields';
import {
  invitationPreview,
  invitationTokenBody,
  inviteBody,
  joinBody,
  pendingInvitation,
  roleChangeBody,
  teamResponse,
} from '../../../common/contracts/team';
import { leastRole } from '../../../common/permissions';
import type { AppContext } from '../../context';
import type { IdentityCache } from '../auth/identity-cache';
import { noContent } from '../../lib/api-document';
import { AppError } from '../../lib/errors';
import { acceptInvitation, joinWithNewAccount, previewInvitation } from './invitation-link';
import { changeRole, invite, listTeam, removeMember, resendInvitation, revokeInvitation } from './service';

/** Invitation emails (new and resent) one company may send per INVITATION_WINDOW_SECONDS, all servers together. */
export const INVITATIONS_PER_WINDOW = 20;
export const INVITATION_WINDOW_SECONDS = 10 * 60;

/** Requests per client IP per minute to each invitation-link route (guessing links, making accounts), all servers together. */
export const LINK_REQUESTS_PER_MINUTE = 30;

const userParam = z.object({ id: z.uuid() });
const joined = z.object({ company_name: z.string() });

export interface TeamRoutesOptions {
  ctx: AppContext;
  /** The identity cache to bring up to date before a change of membership is answered. */
  identities?: IdentityCache;
}

export async function teamRoutes(fastify: FastifyInstance, { ctx, identities }: TeamRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A role change, a removal or a new member: this process's cache learns of it before the
  // answer goes out, so the next request already sees it (docs/decisions/023-identity-cache.md).
  const settled = async <T>(change: Promise<T>): Promise<T> => {
    const result = await change;
    await identities?.settle();
    return result;
  };
  const tags = ['team'];
  const gated = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED'] as const;
  // Seeing the team is everyone's; inviting is behind the expired-trial gate (docs/product.md
  // "Screens: Expired-trial gate"). Revoking and removing are not: a company whose trial ended
  // may need to come down to a smaller plan's number of users before it subscribes.
  const view = { access: { role: leastRole.view, gate: 'trial' } } as const;
  // Who belongs to the company and with which role is changed by people signed in, never by an
  // API key (docs/decisions/049-api-keys.md): a leaked key cannot let anyone in.
  const manage = { access: { role: leastRole.users, gate: 'trial', apiKeys: false } } as const;
  const reduce = { access: { role: leastRole.users, gate: 'none', apiKeys: false } } as const;
  const link = { access: 'public', rateLimit: { max: LINK_REQUESTS_PER_MINUTE, timeWindow: 60_000 } } as const;

  const invitationEmails = ctx.limits.limit({ name: 'invitation-emails', points: INVITATIONS_PER_WINDOW, durationSeconds: INVITATION_WINDOW_SECONDS });
  const takeEmail = async (tenantId: string) => {
    if (!(await invitationEmails.take(tenantId)).allowed) {
      throw new AppError('RATE_LIMITED', 'Too many invitations sent from your company in the last minutes. Please wait 10 minutes and try again.');
    }
  };
  const mailing = () => ({ db: ctx.db, mailer: ctx.mailer, appUrl: ctx.config.appUrl, now: ctx.now() });

  app.get(
    '/api/users',
    { config: view, schema: { tags, operationId: 'listTeam', summary: 'The members of the company and its open invitations', 'x-errors': gated, response: { 200: teamResponse } } },
    async (request) => listTeam(ctx.db, request.who, ctx.now()),
  );
  app.patch(
    '/api/users/:id',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'changeRole',
        summary: "Change a member's role (admins; owners for anything about an owner)",
        'x-errors': [...gated, 'FORBIDDEN', 'LAST_RECORD'],
        params: userParam,
        body: roleChangeBody,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await settled(changeRole(ctx.db, request.who, request.params.id, request.body.role));
      return reply.status(204).send();
    },
  );
  app.delete(
    '/api/users/:id',
    {
      config: reduce,
      schema: {
        tags,
        operationId: 'removeMember',
        summary: 'Remove a member from the company and end their sessions (admins; owners for an owner)',
        'x-errors': ['NO_TENANT', 'FORBIDDEN', 'LAST_RECORD'],
        params: userParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await settled(removeMember(ctx.db, request.who, request.params.id));
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/invitations',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'invite',
        summary: 'Invite someone by email as admin or member (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'CONFLICT', 'LIMIT_REACHED', 'RATE_LIMITED', 'PROVIDER_ERROR'],
        body: inviteBody,
        response: { 201: pendingInvitation },
      },
    },
    async (request, reply) => {
      await takeEmail(request.who.tenantId);
      return reply.status(201).send(await invite(mailing(), request.who, request.body));
    },
  );
  app.post(
    '/api/invitations/:id/resend',
    {
      config: manage,
      schema: {
        tags,
        operationId: 'resendInvitation',
        summary: 'Send an open invitation again with a new link (admins)',
        'x-errors': [...gated, 'FORBIDDEN', 'LIMIT_REACHED', 'RATE_LIMITED', 'PROVIDER_ERROR'],
        params: idParam,
        response: { 200: pendingInvitation },
      },
    },
    async (request) => {
      await takeEmail(request.who.tenantId);
      return resendInvitation(mailing(), request.who, request.params.id);
    },
  );
  app.delete(
    '/api/invitations/:id',
    {
      config: reduce,
      schema: {
        tags,
        operationId: 'revokeInvitation',
        summary: 'Revoke an open invitation (admins)',
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        params: idParam,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await revokeInvitation(ctx.db, request.who, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/invitations/preview',
    {
      config: link,
      schema: {
        tags,
        operationId: 'previewInvitation',
        summary: "An invitation link's company, inviter and email",
        'x-errors': ['VALIDATION', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
        body: invitationTokenBody,
        response: { 200: invitationPreview },
      },
    },
    async (request) => previewInvitation(ctx.db, request.body.token, ctx.now()),
  );
  app.post(
    '/api/invitations/accept',
    {
      config: { access: 'session', rateLimit: link.rateLimit },
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation sent to the signed-in email',
        'x-errors': ['VALIDATION', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
        body: invitationTokenBody,
        response: { 200: joined },
      },
    },
    async (request) => settled(acceptInvitation(ctx.db, request.identity, request.body.token, ctx.now())),
  );
  app.post(
    '/api/invitations/join',
    {
      config: link,
      schema: {
        tags,
        operationId: 'joinByInvitation',
        summary: 'Create the invited account from the link, join the company and sign in',
        'x-errors': ['VALIDATION', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
        body: joinBody,
        response: { 200: joined },
      },
    },
    async (request, reply) => {
      const { cookies, company_name } = await settled(joinWithNewAccount(ctx.db, ctx.auth, request.body, ctx.now()));
      return reply.header('set-cookie', cookies).send({ company_name });
    },
  );
}
