/**
 * HTTP routes of the restock forecast (docs/product.md "Forecast", "Pick lists"). Reading is for
 * every member; delivering a pick list changes stock, which members do; the service level the pick
 * lists bring for is the admins' (docs/product.md "Roles").
 * All are behind the expired-trial gate.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deliverPickListBody,
  deliverPickListResult,
  forecastAnswer,
  forecastQuery,
  orderForecastAnswer,
  pickListAnswer,
  pickListQuery,
  serviceLevelAnswer,
  serviceLevelBody,
  unitForecastAnswer,
} from '../../../common/contracts/forecast';
import { forecastSummary as forecastSummaryAnswer } from '../../../common/contracts/forecast-summary';
import { idParam } from '../../../common/contracts/fields';
import { leastRole } from '../../../common/permissions';
import type { AppContext } from '../../context';
import type { JobQueue } from '../../jobs/queue';
import { coalesce } from '../../lib/coalesce';
import type { TenantIdentity } from '../auth/identity';
import { startRatesJobs } from './rates';
import { sendJsonText } from '../../lib/json-text';
import { deliverPickList } from '../stock/commands/deliver-pick-list';
import { companyForecast, computeCompanyForecast, forecastSummary, garageOrderForecast, garagePickList, unitForecast } from './service';
import { setServiceLevel } from './service-level-setting';

/** `jobs`: the started job queue, which then refreshes the learned rates in the background (rates.ts). */
export async function forecastRoutes(fastify: FastifyInstance, opts: { ctx: AppContext; jobs?: JobQueue }): Promise<void> {
  const { ctx } = opts;
  if (opts.jobs) await startRatesJobs(opts.jobs, ctx.db, ctx.now, (tenantId) => computeCompanyForecast(ctx.db, tenantId, ctx.now()));
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['forecast'];
  const gated = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED'] as const;
  const read = { access: { role: leastRole.view, gate: 'trial' } } as const;
  const stock = { access: { role: leastRole.stock, gate: 'trial' } } as const;
  const settings = { access: { role: leastRole.serviceLevel, gate: 'trial' } } as const;
  // A team opening the forecast together shares its reads (the dashboard card above all); each
  // caller still gets a read that started after it asked (lib/coalesce.ts).
  const readForecast = coalesce(
    ({ who, horizon }: { who: TenantIdentity; horizon: number }) => companyForecast(ctx.db, who, horizon, ctx.now()),
    ({ who, horizon }) => `${who.tenantId}:${horizon}`,
  );
  // A team picking from one garage opens its list together, as the morning round starts.
  const readPickList = coalesce(
    ({ tenantId, garageId, date }: { tenantId: string; garageId: string; date: string | undefined }) =>
      garagePickList(ctx.db, tenantId, garageId, date, ctx.now()),
    ({ tenantId, garageId, date }) => `${tenantId}:${garageId}:${date ?? 'tomorrow'}`,
  );
  const readSummary = coalesce(
    (who: TenantIdentity) => forecastSummary(ctx.db, who, ctx.now()),
    (who) => who.tenantId,
  );

  app.get(
    '/api/forecast',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getForecast',
        summary: 'Properties that would start a check-in short within the horizon, most urgent first',
        'x-errors': gated,
        querystring: forecastQuery,
        response: { 200: forecastAnswer },
      },
    },
    async (request, reply) => sendJsonText(reply, await readForecast({ who: request.who, horizon: request.query.horizon })),
  );
  app.get(
    '/api/forecast/summary',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getForecastSummary',
        summary: 'The dashboard card: the first properties that run out before a check-in this week',
        'x-errors': gated,
        response: { 200: forecastSummaryAnswer },
      },
    },
    async (request) => readSummary(request.who),
  );
  app.get(
    '/api/units/:id/forecast',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getUnitForecast',
        summary: 'One property over the horizon: its stays and every item with its learned usage',
        'x-errors': gated,
        params: idParam,
        querystring: forecastQuery,
        response: { 200: unitForecastAnswer },
      },
    },
    async (request) => unitForecast(ctx.db, request.who, request.params.id, request.query.horizon, ctx.now()),
  );
  app.put(
    '/api/forecast/service-level',
    {
      config: settings,
      schema: {
        tags,
        operationId: 'setServiceLevel',
        summary: 'Set the service level the pick lists bring for: the chance that an arriving stay finds every item it needs (admins)',
        'x-errors': [...gated, 'FORBIDDEN'],
        body: serviceLevelBody,
        response: { 200: serviceLevelAnswer },
      },
    },
    async (request) => setServiceLevel(ctx.db, request.who, request.body.service_level),
  );
  app.get(
    '/api/garages/:id/pick-list',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getGaragePickList',
        summary: 'What to take from a garage on a day, by property arriving that day',
        'x-errors': gated,
        params: idParam,
        querystring: pickListQuery,
        response: { 200: pickListAnswer },
      },
    },
    async (request, reply) => sendJsonText(reply, await readPickList({ tenantId: request.who.tenantId, garageId: request.params.id, date: request.query.date })),
  );
  app.post(
    '/api/units/:id/pick-list/deliver',
    {
      config: { ...stock, idempotent: true },
      schema: {
        tags,
        operationId: 'deliverPickList',
        summary: 'Mark a pick list as delivered: restock transfers from the property’s garage, all or none',
        'x-errors': [...gated, 'CONFLICT'],
        params: idParam,
        body: deliverPickListBody,
        response: { 200: deliverPickListResult },
      },
    },
    async (request) => deliverPickList(ctx.db, request.who, request.params.id, request.body.lines),
  );
  app.get(
    '/api/garages/:id/order-forecast',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getGarageOrderForecast',
        summary: 'What to order for a garage over its lead time, from its properties’ upcoming stays',
        'x-errors': gated,
        params: idParam,
        response: { 200: orderForecastAnswer },
      },
    },
    async (request) => garageOrderForecast(ctx.db, request.who, request.params.id, ctx.now()),
  );
}
