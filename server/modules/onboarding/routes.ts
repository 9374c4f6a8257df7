/** HTTP routes of onboarding (SPEC.md "Onboarding"); rules live in service.ts. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companyStepBody,
  garageStepBody,
  itemsStepBody,
  onboardingStatus as statusSchema,
  unitsStepBody,
} from '../../../common/contracts/onboarding';
import type { AppContext } from '../../context';
import {
  createCompany,
  onboardingStatus,
  saveOnboardingGarage,
  saveOnboardingItems,
  saveOnboardingUnits,
} from './service';

export async function onboardingRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['onboarding'];

  app.get('/api/onboarding/status', { schema: { tags, response: { 200: statusSchema } } }, async (request) =>
    onboardingStatus(ctx.db, await ctx.identity(request)),
  );

  app.post('/api/onboarding/company', { schema: { tags, body: companyStepBody } }, async (request, reply) => {
    const who = await ctx.identity(request);
    const result = await createCompany(ctx.db, who, request.body, { trialDays: ctx.config.trialDays, now: ctx.now() });
    return reply.status(201).send(result);
  });

  app.post('/api/onboarding/items', { schema: { tags, body: itemsStepBody } }, async (request) =>
    saveOnboardingItems(ctx.db, await ctx.tenant(request), request.body, ctx.now()),
  );

  app.post('/api/onboarding/garage', { schema: { tags, body: garageStepBody } }, async (request) =>
    saveOnboardingGarage(ctx.db, await ctx.tenant(request), request.body),
  );

  app.post('/api/onboarding/units', { schema: { tags, body: unitsStepBody } }, async (request) =>
    saveOnboardingUnits(ctx.db, await ctx.tenant(request), request.body, ctx.now()),
  );
}
