/**
 * HTTP routes of calendar links (docs/product.md "Stays", "Calendar links"): a property's link
 * and its state (members), saving the link and typical guests (admins, who manage properties:
 * docs/product.md "Roles"), and a refresh asked for now (members, at most once a minute per
 * property). All behind the expired-trial gate.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { saveCalendarBody, unitCalendar } from '../../../common/contracts/calendars';
import { idParam } from '../../../common/contracts/fields';
import type { AppContext } from '../../context';
import type { JobQueue } from '../../jobs/queue';
import { inlineCalendarJobs, queuedCalendarJobs } from './refresh-jobs';
import { calendarState, MANUAL_REFRESH_LIMIT, refreshNow, saveCalendar, type CalendarDeps } from './service';

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
        operationId: 'saveUnitCalendar',
        summary: "Save a property's calendar link and typical guests (admins); a new link is read at once, the same link again only as a refresh on request would be",
        'x-errors': [...refusals, 'FORBIDDEN'],
        params: idParam,
        body: saveCalendarBody,
        response: { 200: unitCalendar },
      },
    },
    async (request) => {
      const link = await saveCalendar(deps, request.who, request.params.id, request.body);
      if (link === 'none') return calendarState(deps, request.who, request.params.id);
      const state = await refreshNow(deps, request.who, request.params.id, link === 'new' ? 'newLink' : 'sameLink');
      await jobs.follow(request.who.tenantId, request.params.id);
      return state;
    },
  );
  app.post(
    '/api/units/:id/calendar/refresh',
    {
      config: { access: { role: 'member', gate: 'trial' } },
      schema: {
        tags,
        operationId: 'refreshUnitCalendar',
        summary: "Read a property's calendar link now (at most once a minute per property)",
        'x-errors': [...refusals, 'CONFLICT', 'RATE_LIMITED'],
        params: idParam,
        response: { 200: unitCalendar },
      },
    },
    async (request) => refreshNow(deps, request.who, request.params.id, 'request'),
  );
}
