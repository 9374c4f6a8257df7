/**
 * What the vision model is asked and how its reply becomes detections (docs/product.md "AI photo
 * scanner", "Validation rules"; decision 035). Pure functions: no database, no network.
 *
 * The model gets the company's items (id, name, category) and is asked for
 * `{ "items": [{ "item_id", "quantity", "confidence" }] }` through a strict JSON schema whose
 * item ids are limited to the company's. Servers without structured output answer free text: the
 * first bracketed JSON array in it is read instead. Then the rules: an entry needs an item id of
 * the company's, a quantity and a confidence, else it is dropped; the quantity is rounded and at
 * least 1; the confidence is clamped to 0..1.
 */
import { MAX_QUANTITY } from '../../../common/contracts/fields';
import { scanMessages } from '../../../common/contracts/scans';
import { AppError } from '../../lib/errors';

/** An item of the company as the model is told about it. */
export interface CatalogItem {
  id: string;
  name: string;
  category: string;
}

/** One detection after the rules: a company item, a whole quantity >= 1, a confidence in 0..1. */
export interface Detection {
  item_id: string;
  quantity: number;
  confidence: number;
}

/** The instruction naming the company's items, one per line as `id | name | category`. */
export function scanSystemPrompt(items: CatalogItem[]): string {
  return [
    'You count inventory items of a short-term rental operator in a photo.',
    'Only these items exist, one per line as "item_id | name | category":',
    ...items.map((i) => `${i.id} | ${oneLine(i.name)} | ${oneLine(i.category)}`),
    'For each of these items you can see in the photo, give its item_id, how many pieces you see (quantity)',
    'and how sure you are (confidence, from 0 to 1). Leave out items you cannot see. Use only the item_ids above.',
    'Answer only with JSON: {"items": [{"item_id": "...", "quantity": 1, "confidence": 0.9}]}',
  ].join('\n');
}

/** The user message beside the photo. */
export const SCAN_USER_PROMPT = 'Count the listed items in this photo.';

/** Names are the company's own text: one line each, so a name cannot pose as an instruction line. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ');

/**
 * The strict JSON schema of the reply: an object root (strict output needs one) holding the items,
 * every property required, none other allowed, item ids limited to `itemIds`.
 */
export function scanResponseSchema(itemIds: string[]): { name: string; schema: Record<string, unknown> } {
  return {
    name: 'scan_counts',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['items'],
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['item_id', 'quantity', 'confidence'],
            properties: {
              item_id: { type: 'string', enum: itemIds },
              quantity: { type: 'integer' },
              confidence: { type: 'number' },
            },
          },
        },
      },
    },
  };
}

/**
 * The entries of a reply: the `items` of a JSON object, a JSON array, or else the first bracketed
 * JSON array in the text (from the first `[` to the last `]`).
 * @throws AppError PROVIDER_ERROR 'No valid JSON found in response' when there is none.
 */
export function entriesOf(reply: string): unknown[] {
  const whole = parseJson(reply);
  if (Array.isArray(whole)) return whole;
  if (whole && typeof whole === 'object' && Array.isArray((whole as { items?: unknown }).items)) return (whole as { items: unknown[] }).items;
  const start = reply.indexOf('[');
  const end = reply.lastIndexOf(']');
  const bracketed = start >= 0 && end > start ? parseJson(reply.slice(start, end + 1)) : undefined;
  if (Array.isArray(bracketed)) return bracketed;
  throw new AppError('PROVIDER_ERROR', scanMessages.noJson);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A finite number, or a numeric string as some models write one; else undefined. */
function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Applies the rules to the reply's entries: an entry without an item id of `knownIds`, a quantity
 * or a confidence is dropped; the quantity is rounded, at least 1 and at most MAX_QUANTITY; the
 * confidence is clamped to 0..1. An item named twice is counted once, with the sum of its
 * quantities and the higher confidence.
 * @returns the detections in the order of their first entry.
 */
export function detectionsOf(entries: unknown[], knownIds: ReadonlySet<string>): Detection[] {
  const byItem = new Map<string, Detection>();
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    const { item_id: itemId, quantity: rawQuantity, confidence: rawConfidence } = entry as Record<string, unknown>;
    const quantity = numberOf(rawQuantity);
    const confidence = numberOf(rawConfidence);
    if (typeof itemId !== 'string' || !knownIds.has(itemId) || quantity === undefined || confidence === undefined) continue;
    const counted = Math.min(Math.max(Math.round(quantity), 1), MAX_QUANTITY);
    const sure = Math.min(Math.max(confidence, 0), 1);
    const seen = byItem.get(itemId);
    byItem.set(
      itemId,
      seen
        ? { item_id: itemId, quantity: Math.min(seen.quantity + counted, MAX_QUANTITY), confidence: Math.max(seen.confidence, sure) }
        : { item_id: itemId, quantity: counted, confidence: sure },
    );
  }
  return [...byItem.values()];
}
