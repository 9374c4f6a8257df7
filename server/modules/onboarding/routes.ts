/** HTTP routes of onboarding (docs/product.md "Screens: Onboarding"); rules live in service.ts. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  companyStepBody,
  garageStepBody,
  itemsStepBody,
  onboardingSetup as setupSchema,
  unitsStepBody,
  unitsStepResult,
} from '../../../common/contracts/onboarding';
import { onboardingStatus as statusSchema } from '../../../common/contracts/onboarding-status';
import type { AppContext } from '../../context';
import {
  createCompany,
  onboardingSetup,
  onboardingStatus,
  saveOnboardingGarage,
  saveOnboardingItems,
  saveOnboardingUnits,
} from './service';
import { leastRole } from '../../../common/permissions';

/** Answer of the items step: how many items it saved. */
const savedCount = z.object({ count: z.number().int() });

export async function onboardingRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['onboarding'];
  const stepErrors = ['NO_TENANT', 'FORBIDDEN', 'CONFLICT', 'LIMIT_REACHED'] as const;
  // Setup comes before the company exists (its first steps need only a session) and is not
  // behind the expired-trial gate (docs/product.md "Screens: Expired-trial gate").
  const session = { access: 'session' } as const;
  const step = { access: { role: leastRole.setup, gate: 'none' } } as const;

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

  app.get(
    '/api/onboarding/setup',
    {
      config: step,
      schema: {
        tags,
        operationId: 'getOnboardingSetup',
        summary: 'What the setup steps saved so far: the items, and the storage with its stock',
        'x-errors': ['NO_TENANT', 'FORBIDDEN'],
        response: { 200: setupSchema },
      },
    },
    async (request) => onboardingSetup(ctx.db, request.who),
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
        summary: 'Save the items step (updates and adds to an earlier submit, by id or name)',
        'x-errors': [...stepErrors, 'NOT_FOUND'],
        body: itemsStepBody,
        response: { 200: savedCount },
      },
    },
    async (request) => saveOnboardingItems(ctx.db, request.who, request.body, ctx.now()),
  );

  app.post(
    '/api/onboarding/garage',
    {
      config: { ...step, idempotent: true },
      schema: {
        tags,
        operationId: 'saveOnboardingGarage',
        summary: 'Save the storage step and its starting quantities (created, or updated when saved before)',
        'x-errors': [...stepErrors, 'NOT_FOUND'],
        body: garageStepBody,
        response: { 200: z.object({ id: z.uuid() }) },
      },
    },
    async (request) => saveOnboardingGarage(ctx.db, request.who, request.body),
  );

  app.post(
    '/api/onboarding/units',
    {
      config: { ...step, idempotent: true },
      schema: {
        tags,
        operationId: 'saveOnboardingUnits',
        summary: 'Save the properties, fill them to their minimum from storage when asked, and complete setup',
        'x-errors': stepErrors,
        body: unitsStepBody,
        response: { 200: unitsStepResult },
      },
    },
    async (request) => saveOnboardingUnits(ctx.db, request.who, request.body, ctx.now()),
  );
}
