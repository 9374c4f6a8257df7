/**
 * The confirmation list's rules (docs/product.md "Screens: AI photo scanner"): each detected item with a
 * quantity the user may correct (a whole number from 1), compared with what the unit's garage
 * holds; what is sent to apply.
 */
import { MAX_QUANTITY, grouped } from '../../../common/contracts/fields';
import type { ApplyScanBody, ScanDetection } from '../../../common/contracts/scans';

/** One row as the user edits it: the detection, and the quantity as typed. */
export interface ConfirmLine {
  detection: ScanDetection;
  quantityText: string;
}

/** The rows of a new confirmation: every detection at the model's count. */
export function initialLines(detections: ScanDetection[]): ConfirmLine[] {
  return detections.map((detection) => ({ detection, quantityText: String(detection.quantity) }));
}

/** What is wrong with a typed quantity, or null when it is a whole number from 1 to MAX_QUANTITY. */
export function quantityProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'Enter a quantity';
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return 'Quantity must be a number';
  if (!Number.isInteger(n)) return 'Quantity must be a whole number';
  if (n < 1) return 'Quantity must be at least 1';
  if (n > MAX_QUANTITY) return `Quantity must be at most ${grouped(MAX_QUANTITY)}`;
  return null;
}

/** 'short' when the typed quantity is more than the garage holds, 'enough' otherwise; null without a garage or a valid quantity. */
export function garageFit(line: ConfirmLine): 'short' | 'enough' | null {
  const available = line.detection.available_in_garage;
  if (available === null || quantityProblem(line.quantityText) !== null) return null;
  return Number(line.quantityText) > available ? 'short' : 'enough';
}

/** The apply body of the rows, or null while a quantity is invalid or no row is left. */
export function restockBody(lines: ConfirmLine[]): ApplyScanBody | null {
  if (lines.length === 0 || lines.some((l) => quantityProblem(l.quantityText) !== null)) return null;
  return { mode: 'restock', items: lines.map((l) => ({ item_id: l.detection.item_id, quantity: Number(l.quantityText) })) };
}

/** Confidence 0..1 as a whole percentage, e.g. 0.876 -> '88%'. */
export const confidencePercent = (confidence: number): string => `${Math.round(confidence * 100)}%`;
