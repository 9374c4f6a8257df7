/**
 * The AI photo scanner (docs/product.md "Screens: AI photo scanner", decision 035): a photo of a unit
 * becomes a scan — the re-encoded photo and the company's items the vision model found in it.
 * The counts the user confirms are applied once, through the ledger, by the stock command
 * stock/commands/apply-scan.ts.
 */
import { sql } from 'drizzle-orm';
import type { Scan, ScanDetection } from '../../../common/contracts/scans';
import { scanMessages, SECOND_LOOK_ABOVE } from '../../../common/contracts/scans';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { AiTimeoutError, type AiProvider } from '../../integrations/ai';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/identity';
import { detectionsOf, entriesOf, SCAN_USER_PROMPT, scanResponseSchema, scanSystemPrompt, type CatalogItem, type Detection } from './detections';

/** Where a scan's stored photo is served. */
export const photoUrl = (scanId: string) => `/api/scans/${scanId}/photo`;

/** The unit's garage and the company's items, read before the model is asked. @throws 404 */
async function readUnitAndCatalog(tx: Tx, tenantId: string, unitId: string) {
  const [unit] = await queryRows<{ garage_id: string | null; garage_name: string | null }>(
    tx,
    sql`select u.garage_id, g.name as garage_name
        from units u left join garages g on g.tenant_id = u.tenant_id and g.id = u.garage_id
        where u.tenant_id = ${tenantId} and u.id = ${unitId}`,
  );
  if (!unit) throw notFound('Unit');
  const items = await queryRows<CatalogItem>(
    tx,
    sql`select id, name, category from items where tenant_id = ${tenantId} order by name, id`,
  );
  return { unit, items };
}

/**
 * Asks the model for the items in the photo and applies the rules (detections.ts).
 * @throws AppError PROVIDER_ERROR on a failed or timed-out call or a reply without JSON;
 *   NOTHING_DETECTED when no entry is left.
 */
async function detect(ai: AiProvider, items: CatalogItem[], photo: Buffer, timeoutMs: number, log: (err: unknown) => void): Promise<Detection[]> {
  if (items.length === 0) throw new AppError('NOTHING_DETECTED', scanMessages.nothingFound);
  let reply: string;
  try {
    reply = await ai.countItems({
      system: scanSystemPrompt(items),
      user: SCAN_USER_PROMPT,
      imageJpeg: photo,
      schema: scanResponseSchema(items.map((i) => i.id)),
    });
  } catch (err) {
    log(err);
    if (err instanceof AiTimeoutError) {
      throw new AppError('PROVIDER_ERROR', `${scanMessages.analyzeFailed}: no answer within ${(timeoutMs / 1000).toLocaleString('en-US')} s. Please try again.`);
    }
    throw new AppError('PROVIDER_ERROR', `${scanMessages.analyzeFailed}. Please try again.`);
  }
  const detections = detectionsOf(entriesOf(reply), new Set(items.map((i) => i.id)));
  if (detections.length === 0) throw new AppError('NOTHING_DETECTED', scanMessages.nothingFound);
  return detections;
}

export interface ScanDeps {
  db: Db;
  /** Null when no AI key is configured: the scanner says so. */
  ai: AiProvider | null;
  model: string;
  timeoutMs: number;
  /** Takes one of the company's scans of the minute: false when none is left. */
  takeScan: () => Promise<boolean>;
  /** The company's scans per minute, for the refusal. */
  perMinute: number;
  /** Gets a failed model call, for the log. */
  log: (err: unknown) => void;
}

/**
 * Scans a photo of a unit: checks the unit, that the scanner is configured and that the company
 * has a scan of the minute left, then reads the photo (`upload`: read and re-encoded, photo.ts),
 * asks the model, keeps the photo and the detections as a scan of the unit, and answers them with
 * what the unit's garage holds of each. Nothing is stored when the model fails or finds nothing.
 * @throws 404 for an unknown unit; SCANNER_NOT_CONFIGURED; RATE_LIMITED; whatever `upload`
 *   throws; PROVIDER_ERROR; NOTHING_DETECTED
 */
export async function scanUnitPhoto(deps: ScanDeps, who: TenantIdentity, unitId: string, upload: () => Promise<Buffer>): Promise<Scan> {
  const { tenantId } = who;
  const { unit, items } = await withTenant(deps.db, tenantId, (tx) => readUnitAndCatalog(tx, tenantId, unitId));
  if (!deps.ai) throw new AppError('SCANNER_NOT_CONFIGURED', scanMessages.notConfigured);
  // Counted before the photo is read: the limit also spares the server's decoding work.
  if (!(await deps.takeScan())) {
    throw new AppError('RATE_LIMITED', `Photo scan limit reached (${deps.perMinute} a minute for your company). Please try again in a minute.`);
  }
  const photo = await upload();
  const detections = await detect(deps.ai, items, photo, deps.timeoutMs, deps.log);
  return withTenant(deps.db, tenantId, async (tx) => {
    const [stored] = await queryRows<{ id: string; created_at: string | Date }>(
      tx,
      sql`insert into scans (tenant_id, unit_id, user_id, photo, detections, model)
          select ${tenantId}, u.id, ${who.userId}, decode(${photo.toString('base64')}, 'base64'), ${JSON.stringify(detections)}::jsonb, ${deps.model}
          from units u where u.tenant_id = ${tenantId} and u.id = ${unitId}
          returning id, created_at`,
    );
    // Deleted while the model was looking: as if it had been a moment earlier.
    if (!stored) throw notFound('Unit');
    const held = unit.garage_id === null ? null : await garageHoldings(tx, tenantId, unit.garage_id, detections.map((d) => d.item_id));
    const names = new Map(items.map((i) => [i.id, i.name]));
    return {
      id: stored.id,
      unit_id: unitId,
      garage_id: null,
      garage: unit.garage_id === null ? null : { id: unit.garage_id, name: unit.garage_name ?? '' },
      photo_url: photoUrl(stored.id),
      items: detections.map(
        (d): ScanDetection => ({
          ...d,
          name: names.get(d.item_id) ?? '',
          second_look: d.quantity > SECOND_LOOK_ABOVE,
          available_in_garage: held === null ? null : (held.get(d.item_id) ?? 0),
        }),
      ),
      created_at: new Date(stored.created_at).toISOString(),
    };
  });
}

/** What the garage holds of each of `itemIds` (items without a row absent). */
async function garageHoldings(tx: Tx, tenantId: string, garageId: string, itemIds: string[]): Promise<Map<string, number>> {
  const rows = await queryRows<{ item_id: string; quantity: number }>(
    tx,
    sql`select item_id, quantity from garage_inventory
        where tenant_id = ${tenantId} and garage_id = ${garageId} and item_id = any(${pgArray(itemIds)}::uuid[])
        order by item_id`,
  );
  return new Map(rows.map((r) => [r.item_id, Number(r.quantity)]));
}

/**
 * The stored photo of a scan of the caller's company.
 * @returns the JPEG. @throws 404 (another company's scan too)
 */
export async function readScanPhoto(db: Db, who: TenantIdentity, scanId: string): Promise<Buffer> {
  const [row] = await withTenant(db, who.tenantId, (tx) =>
    queryRows<{ photo: string }>(tx, sql`select encode(photo, 'base64') as photo from scans where tenant_id = ${who.tenantId} and id = ${scanId}`),
  );
  if (!row) throw notFound('Scan');
  return Buffer.from(row.photo, 'base64');
}
