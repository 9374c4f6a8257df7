/**
 * HTTP routes of calendar links (docs/product.md "Stays", "Calendar links"): a property's links
 * and their state (members), adding and removing a link and saving the typical guests (admins,
 * who manage properties: docs/product.md "Roles"), and a refresh asked for now (members, at most
 * once a minute per property). All behind the expired-trial gate.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addCalendarLinkBody, calendarLinkParams, MAX_CALENDAR_LINKS, saveTypicalGuestsBody, unitCalendar } from '../../../common/contracts/calendars';
import { idParam } from '../../../common/contracts/fields';
import type { AppContext } from '../../context';
import { noContent } from '../../lib/api-document';
import type { JobQueue } from '../../jobs/queue';
import { inlineCalendarJobs, queuedCalendarJobs } from './refresh-jobs';
import { addCalendarLink, calendarState, MANUAL_REFRESH_LIMIT, refreshNow, removeCalendarLink, saveTypicalGuests, type CalendarDeps } from './service';

export async function calendarRoutes(fastify: FastifyInstance, { ctx, queue }: { ctx: AppContext; queue?: JobQueue }): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { calendar } = ctx.config;
  const deps: CalendarDeps = {
    db: ctx.db,
    now: ctx.now,
    feed: { timeoutMs: calendar.timeoutMs, maxBytes: calendar.maxBytes, allowLoopback: calendar.allowLoopback },
    manualRefreshes: ctx.limits.limit(MANUAL_REFRESH_LIMIT),
  };
  const jobs = queue ? await queuedCalendarJobs(queue, deps, calendar.refreshMinutes) : inlineCalendarJobs;
  const tags = ['units'];
  const refusals = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED', 'NOT_FOUND'] as const;

  app.get(
    '/api/units/:id/calendar',
    {
      config: { access: { role: 'member', gate: 'trial' } },
      schema: {
        tags,
        operationId: 'getUnitCalendar',
        summary: "A property's calendar link, typical guests and last refresh",
        'x-errors': refusals,
        params: idParam,
        response: { 200: unitCalendar },
      },
    },
    async (request) => calendarState(deps, request.who, request.params.id),
  );
  app.put(
    '/api/units/:id/calendar',
    {
      config: { access: { role: 'admin', gate: 'trial' } },
      schema: {
        tags,
        operationId: 'saveUnitTypicalGuests',
        summary: "Save a property's typical guests per stay (admins)",
        'x-errors': [...refusals, 'FORBIDDEN'],
        params: idParam,
        body: saveTypicalGuestsBody,
        response: { 200: unitCalendar },
      },
    },
    async (request) => {
      await saveTypicalGuests(deps, request.who, request.params.id, request.body);
      return calendarState(deps, request.who, request.params.id);
    },
  );
  app.post(
    '/api/units/:id/calendar/links',
    {
      config: { access: { role: 'admin', gate: 'trial' } },
      schema: {
        tags,
        operationId: 'addUnitCalendarLink',
        summary: `Add a calendar link to a property (admins; at most ${MAX_CALENDAR_LINKS}); it is read at once and its state answered`,
        'x-errors': [...refusals, 'FORBIDDEN', 'CONFLICT'],
        params: idParam,
        body: addCalendarLinkBody,
        response: { 201: unitCalendar },
      },
    },
    async (request, reply) => {
      const linkId = await addCalendarLink(deps, request.who, request.params.id, request.body.url);
      const state = await refreshNow(deps, request.who, request.params.id, { newLink: linkId });
      await jobs.follow(request.who.tenantId, request.params.id);
      return reply.code(201).send(state);
    },
  );
  app.delete(
    '/api/units/:id/calendar/links/:linkId',
    {
      config: { access: { role: 'admin', gate: 'trial' } },
      schema: {
        tags,
        operationId: 'removeUnitCalendarLink',
        summary: "Remove a property's calendar link (admins) with its stays that have not ended",
        'x-errors': [...refusals, 'FORBIDDEN'],
        params: calendarLinkParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await removeCalendarLink(deps, request.who, request.params.id, request.params.linkId);
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/units/:id/calendar/refresh',
    {
      config: { access: { role: 'member', gate: 'trial' } },
      schema: {
        tags,
        operationId: 'refreshUnitCalendar',
        summary: "Read a property's calendar links now (at most once a minute per property)",
        'x-errors': [...refusals, 'CONFLICT', 'RATE_LIMITED'],
        params: idParam,
        response: { 200: unitCalendar },
      },
    },
    async (request) => refreshNow(deps, request.who, request.params.id, 'request'),
  );
}
