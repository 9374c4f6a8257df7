/** HTTP routes of onboarding (docs/product.md "Screens: Onboarding"); rules live in service.ts. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyStepBody, garageStepBody, itemsStepBody, unitsStepBody } from '../../../common/contracts/onboarding';
import { onboardingStatus as statusSchema } from '../../../common/contracts/onboarding-status';
import type { AppContext } from '../../context';
import {
  createCompany,
  onboardingStatus,
  saveOnboardingGarage,
  saveOnboardingItems,
  saveOnboardingUnits,
} from './service';

/** Answer of the items and units steps: how many records the step saved. */
const savedCount = z.object({ count: z.number().int() });

export async function onboardingRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['onboarding'];
  const stepErrors = ['NO_TENANT', 'CONFLICT', 'LIMIT_REACHED'] as const;
  // Setup comes before the company exists (its first steps need only a session) and is not
  // behind the expired-trial gate (docs/product.md "Screens: Expired-trial gate").
  const session = { access: 'session' } as const;
  const step = { access: { role: 'member', gate: 'none' } } as const;

  app.get(
    '/api/onboarding/status',
    {
      config: session,
      schema: {
        tags,
        operationId: 'getOnboardingStatus',
        summary: 'Whether setup is needed, and its current step',
        response: { 200: statusSchema },
      },
    },
    async (request) => onboardingStatus(ctx.db, request.identity),
  );

  app.post(
    '/api/onboarding/company',
    {
      config: session,
      schema: {
        tags,
        operationId: 'createCompany',
        summary: 'Create the company with its trial; the caller becomes its owner',
        'x-errors': ['CONFLICT'],
        body: companyStepBody,
        response: { 201: z.object({ tenant_id: z.uuid() }) },
      },
    },
    async (request, reply) => {
      const result = await createCompany(ctx.db, request.identity, request.body, { trialDays: ctx.config.trialDays, now: ctx.now() });
      return reply.status(201).send(result);
    },
  );

  app.post(
    '/api/onboarding/items',
    {
      config: step,
      schema: {
        tags,
        operationId: 'saveOnboardingItems',
        summary: 'Save the items step (replaces an earlier submit)',
        'x-errors': stepErrors,
        body: itemsStepBody,
        response: { 200: savedCount },
      },
    },
    async (request) => saveOnboardingItems(ctx.db, request.who, request.body, ctx.now()),
  );

  app.post(
    '/api/onboarding/garage',
    {
      config: step,
      schema: {
        tags,
        operationId: 'saveOnboardingGarage',
        summary: 'Save the storage step (created, or updated when saved before)',
        'x-errors': stepErrors,
        body: garageStepBody,
        response: { 200: z.object({ id: z.uuid() }) },
      },
    },
    async (request) => saveOnboardingGarage(ctx.db, request.who, request.body),
  );

  app.post(
    '/api/onboarding/units',
    {
      config: step,
      schema: {
        tags,
        operationId: 'saveOnboardingUnits',
        summary: 'Save the properties and complete setup',
        'x-errors': stepErrors,
        body: unitsStepBody,
        response: { 200: savedCount },
      },
    },
    async (request) => saveOnboardingUnits(ctx.db, request.who, request.body, ctx.now()),
  );
}
