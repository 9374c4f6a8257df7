/**
 * The AI photo scanner's contracts (docs/product.md "Screens: AI photo scanner", decision 035): a photo of
 * a location is sent once, the server counts the company's items in it with a vision model and
 * keeps the photo and the counts as a scan; the user confirms the counts, which are applied once.
 */
import { z } from 'zod';
import { wholeNumber } from './fields';

/** Widest photo sent for analysis, in pixels: the browser and the server both downscale to it (docs/product.md "Constants and limits"). */
export const SCAN_PHOTO_MAX_WIDTH = 800;

/** JPEG quality of the photo sent for analysis, 0..1 (docs/product.md "Constants and limits"). */
export const SCAN_JPEG_QUALITY = 0.6;

/**
 * Counts above this are shown for a second look: vision models count large numbers only
 * approximately (decision 035).
 */
export const SECOND_LOOK_ABOVE = 10;

/** Messages of the scanner the web shows as they are (docs/product.md "Messages"). */
export const scanMessages = {
  nothingFound: 'No matching items found in the image',
  noJson: 'No valid JSON found in response',
  analyzeFailed: 'Failed to analyze image',
  notConfigured: 'Counting items from a photo is not configured on this server: it has no AI key (OPENAI_API_KEY). Use Add Manually instead.',
  alreadyApplied: 'These counts were already applied.',
  garageShort: (names: string[]) => `Some items exceed available garage stock: ${names.join(', ')}`,
} as const;

/** GET /api/scanner — whether photo counting works on this server, and the largest photo it takes. */
export const scannerStatus = z.object({
  configured: z.boolean(),
  /** Largest photo upload, in bytes. */
  max_photo_bytes: z.number().int(),
});
export type ScannerStatus = z.infer<typeof scannerStatus>;

/** One item the model found in the photo, as the confirmation list shows it. */
export const scanDetection = z.object({
  item_id: z.string(),
  name: z.string(),
  /** Pieces counted, a whole number >= 1. */
  quantity: z.number().int(),
  /** How sure the model is, 0..1. */
  confidence: z.number(),
  /** True when the count is above {@link SECOND_LOOK_ABOVE}: worth counting again by eye. */
  second_look: z.boolean(),
  /** What the unit's garage holds of the item (0 when it has no row of it); null without a garage. */
  available_in_garage: z.number().int().nullable(),
});
export type ScanDetection = z.infer<typeof scanDetection>;

/** Answer of POST /api/units/:id/scans: the stored scan with what was found in its photo. */
export const scan = z.object({
  id: z.string(),
  unit_id: z.string().nullable(),
  garage_id: z.string().nullable(),
  /** The garage the unit takes stock from when the scan was made; null without one. */
  garage: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Where the stored photo is served (same company only). */
  photo_url: z.string(),
  items: z.array(scanDetection),
  created_at: z.string(),
});
export type Scan = z.infer<typeof scan>;

/** Most confirmed items one apply may carry. */
export const MAX_SCAN_ITEMS = 200;

/** One confirmed line: the item and its (possibly corrected) quantity, at least 1. */
export const confirmedLine = z.strictObject({
  item_id: z.uuid('Each item must be an item id'),
  quantity: wholeNumber('Quantity', 1),
});

const confirmedLines = z
  .array(confirmedLine)
  .min(1, 'Confirm at least one item')
  .max(MAX_SCAN_ITEMS, `At most ${MAX_SCAN_ITEMS} items at once`)
  .refine((lines) => new Set(lines.map((l) => l.item_id)).size === lines.length, 'Each item can appear only once');

/** How confirmed counts are applied (decision 035); a stocktake mode is to join 'restock'. */
export const scanModes = ['restock'] as const;

/**
 * POST /api/scans/:id/apply — the confirmed counts. `mode` says what they mean:
 * 'restock' (a unit's scan): the pieces were brought to the unit, from its garage when it has one.
 */
export const applyScanBody = z.strictObject({
  mode: z.enum(scanModes, `Mode must be ${scanModes.join(' or ')}`),
  items: confirmedLines,
});
export type ApplyScanBody = z.infer<typeof applyScanBody>;

/** Answer of applying a scan: each line as applied, with the quantities right after it. */
export const applyScanResult = z.object({
  scan_id: z.string(),
  mode: z.enum(scanModes),
  applied: z.array(
    z.object({
      item_id: z.string(),
      item_name: z.string(),
      quantity: z.number().int(),
      unit_quantity: z.number().int(),
      /** The garage's quantity after a transfer; null when the unit has no garage (received stock). */
      garage_quantity: z.number().int().nullable(),
    }),
  ),
});
export type ApplyScanResult = z.infer<typeof applyScanResult>;
