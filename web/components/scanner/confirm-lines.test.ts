/** The scanner's confirmation rules and the photo's size in the browser (docs/product.md "Screens: AI photo scanner"). */
import { describe, expect, it } from 'vitest';
import type { ScanDetection } from '../../../common/contracts/scans';
import { confidencePercent, garageFit, initialLines, quantityProblem, restockBody } from './confirm-lines';
import { fitWidth } from './photo-downscale';

const towel: ScanDetection = { item_id: 'towel', name: 'Bath Towel', quantity: 4, confidence: 0.876, second_look: false, available_in_garage: 5 };
const soap: ScanDetection = { item_id: 'soap', name: 'Soap', quantity: 12, confidence: 0.4, second_look: true, available_in_garage: null };

describe('scan confirmation', () => {
  it('starts at the model’s counts and sends the corrected ones', () => {
    const lines = initialLines([towel, soap]);
    expect(restockBody(lines)).toEqual({ mode: 'restock', items: [{ item_id: 'towel', quantity: 4 }, { item_id: 'soap', quantity: 12 }] });
    expect(restockBody([{ ...lines[0]!, quantityText: ' 7 ' }])).toEqual({ mode: 'restock', items: [{ item_id: 'towel', quantity: 7 }] });
    expect(restockBody([])).toBeNull();
  });

  it('takes whole quantities from 1 to 1,000,000 only', () => {
    expect(quantityProblem('')).toBe('Enter a quantity');
    expect(quantityProblem('0')).toBe('Quantity must be at least 1');
    expect(quantityProblem('-3')).toBe('Quantity must be at least 1');
    expect(quantityProblem('1.5')).toBe('Quantity must be a whole number');
    expect(quantityProblem('abc')).toBe('Quantity must be a number');
    expect(quantityProblem('1000000001')).toBe('Quantity must be at most 1,000,000');
    expect(quantityProblem('3')).toBeNull();
    expect(restockBody([{ detection: towel, quantityText: '0' }])).toBeNull();
  });

  it('compares with the garage: red above what it holds, green up to it, nothing without a garage', () => {
    expect(garageFit({ detection: towel, quantityText: '5' })).toBe('enough');
    expect(garageFit({ detection: towel, quantityText: '6' })).toBe('short');
    expect(garageFit({ detection: towel, quantityText: 'x' })).toBeNull();
    expect(garageFit({ detection: soap, quantityText: '1' })).toBeNull();
  });

  it('shows confidence as a whole percentage', () => {
    expect(confidencePercent(0.876)).toBe('88%');
    expect(confidencePercent(1)).toBe('100%');
  });

  it('downscales to 800 px wide, never up', () => {
    expect(fitWidth(4032, 3024)).toEqual({ width: 800, height: 600 });
    expect(fitWidth(640, 480)).toEqual({ width: 640, height: 480 });
    expect(fitWidth(3000, 1)).toEqual({ width: 800, height: 1 });
  });
});
