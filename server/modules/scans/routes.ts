/**
 * HTTP routes of the AI photo scanner (docs/product.md "Screens: AI photo scanner", decision 035):
 * - GET /api/scanner: whether it works on this server;
 * - POST /api/units/:id/scans: a photo of the unit (multipart/form-data, one file), answered with
 *   what the model found; each company may send OPENAI_SCANS_PER_MINUTE a minute (paid calls),
 *   counted by every server together (lib/limits.ts);
 * - GET /api/scans/:id/photo: the stored photo, to the scan's company only;
 * - POST /api/scans/:id/apply: the confirmed counts, applied once.
 * Sending a photo and applying counts are the plan feature `ai_scanner`.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../../common/contracts/fields';
import { applyScanBody, applyScanResult, scan, scannerStatus } from '../../../common/contracts/scans';
import type { AppContext } from '../../context';
import type { AiProvider } from '../../integrations/ai';
import { AppError } from '../../lib/errors';
import { reencodePhoto } from './photo';
import { applyScan } from '../stock/commands/apply-scan';
import { readScanPhoto, scanUnitPhoto } from './service';

/** `n` bytes as whole megabytes for messages ("10 MB"). */
const megabytes = (n: number) => `${Math.floor(n / (1024 * 1024)).toLocaleString('en-US')} MB`;

/**
 * Reads the one file of a multipart request, refusing a larger one while it arrives.
 * @throws AppError VALIDATION without a multipart file; PAYLOAD_TOO_LARGE past `maxBytes`.
 */
async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  const refusedShape = () => new AppError('VALIDATION', 'Send the photo as multipart/form-data with one file field named photo');
  let part;
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 1 } });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw refusedShape();
    throw err;
  }
  if (!part) throw refusedShape();
  try {
    return await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('PAYLOAD_TOO_LARGE', `Failed to process image: the photo is larger than ${megabytes(maxBytes)}.`);
    }
    throw err;
  }
}

export async function scanRoutes(fastify: FastifyInstance, opts: { ctx: AppContext; ai: AiProvider | null }): Promise<void> {
  const { ctx, ai } = opts;
  await fastify.register(multipart);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['scans'];
  const gated = ['NO_TENANT', 'SUBSCRIPTION_REQUIRED'] as const;
  const member = { access: { role: 'member', gate: 'trial' } } as const;
  const scanner = { access: { role: 'member', gate: 'trial', feature: 'ai_scanner' } } as const;
  const { scanPhoto, openai } = ctx.config;
  const scans = ctx.limits.limit({ name: 'photo-scans', points: openai.scansPerMinute, durationSeconds: 60 });

  app.get(
    '/api/scanner',
    {
      config: member,
      schema: { tags, operationId: 'getScannerStatus', summary: 'Whether photo counting works on this server', 'x-errors': gated, response: { 200: scannerStatus } },
    },
    async () => ({ configured: ai !== null, max_photo_bytes: scanPhoto.maxBytes }),
  );
  app.post(
    '/api/units/:id/scans',
    {
      config: scanner,
      schema: {
        tags,
        operationId: 'scanUnitPhoto',
        summary: 'Count the company’s items in a photo of the unit (multipart/form-data, one image file)',
        consumes: ['multipart/form-data'],
        'x-errors': [...gated, 'FORBIDDEN', 'RATE_LIMITED', 'NOTHING_DETECTED', 'PROVIDER_ERROR', 'SCANNER_NOT_CONFIGURED'],
        params: idParam,
        response: { 200: scan },
      },
    },
    async (request) =>
      scanUnitPhoto(
        {
          db: ctx.db,
          ai,
          model: openai.scanModel,
          timeoutMs: openai.timeoutMs,
          takeScan: async () => (await scans.take(request.who.tenantId)).allowed,
          perMinute: openai.scansPerMinute,
          log: (err) => request.log.warn({ err }, 'AI scan failed'),
        },
        request.who,
        request.params.id,
        async () => reencodePhoto(await readUpload(request, scanPhoto.maxBytes), scanPhoto.maxInputPixels),
      ),
  );
  app.get(
    '/api/scans/:id/photo',
    {
      config: member,
      schema: {
        tags,
        operationId: 'getScanPhoto',
        summary: 'The photo of a scan (JPEG), to its company only',
        produces: ['image/jpeg'],
        'x-errors': gated,
        params: idParam,
        response: { 200: z.any().describe('The JPEG') },
      },
    },
    async (request, reply) => {
      const photo = await readScanPhoto(ctx.db, request.who, request.params.id);
      // A scan's photo never changes; private: it is the company's.
      return reply.type('image/jpeg').header('cache-control', 'private, max-age=86400, immutable').send(photo);
    },
  );
  app.post(
    '/api/scans/:id/apply',
    {
      config: { ...scanner, idempotent: true },
      schema: {
        tags,
        operationId: 'applyScan',
        summary: 'Apply the confirmed counts of a scan, once',
        'x-errors': [...gated, 'FORBIDDEN', 'CONFLICT'],
        params: idParam,
        body: applyScanBody,
        response: { 200: applyScanResult },
      },
    },
    async (request) => applyScan(ctx.db, request.who, request.params.id, request.body),
  );
}
