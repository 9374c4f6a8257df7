/**
 * The scanner's reply rules (docs/product.md "Validation rules"): JSON from a structured reply, a
 * bare array, or the first bracketed array of free text; entries without a company item id, a
 * quantity or a confidence dropped; quantities rounded to at least 1, confidences clamped to 0..1.
 */
import { describe, expect, it } from 'vitest';
import { detectionsOf, entriesOf, scanResponseSchema, scanSystemPrompt } from './detections';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const known = new Set([A, B]);

describe('scan replies', () => {
  it('reads a structured object, a bare array and the first bracketed array of free text', () => {
    expect(entriesOf(JSON.stringify({ items: [{ item_id: A }] }))).toEqual([{ item_id: A }]);
    expect(entriesOf(`[{"item_id":"${A}"}]`)).toEqual([{ item_id: A }]);
    expect(entriesOf(`Here you go:\n\`\`\`json\n[{"item_id":"${A}","quantity":2}]\n\`\`\`\nDone.`)).toEqual([{ item_id: A, quantity: 2 }]);
  });

  it('says "No valid JSON found in response" for garbage, an object without items, or a broken array', () => {
    for (const reply of ['no items here', '{"count": 3}', '[{"item_id": "x",', '] backwards [']) {
      expect(() => entriesOf(reply), reply).toThrow('No valid JSON found in response');
    }
  });

  it('drops unknown ids and incomplete entries, rounds quantities to at least 1 and clamps confidence', () => {
    const entries = [
      { item_id: A, quantity: 2.5, confidence: 1.4 },
      { item_id: 'not-ours', quantity: 3, confidence: 0.5 },
      { item_id: B, quantity: 0.2, confidence: -1 },
      { item_id: B, confidence: 0.5 },
      { item_id: A, quantity: 'lots', confidence: 0.5 },
      { quantity: 1, confidence: 1 },
      null,
      'text',
    ];
    expect(detectionsOf(entries, known)).toEqual([
      { item_id: A, quantity: 3, confidence: 1 },
      { item_id: B, quantity: 1, confidence: 0 },
    ]);
  });

  it('counts an item named twice once, with the sum and the higher confidence, and caps absurd counts', () => {
    expect(detectionsOf([{ item_id: A, quantity: 2, confidence: 0.4 }, { item_id: A, quantity: '3', confidence: 0.9 }], known)).toEqual([
      { item_id: A, quantity: 5, confidence: 0.9 },
    ]);
    expect(detectionsOf([{ item_id: A, quantity: 1e12, confidence: 0.5 }], known)).toEqual([{ item_id: A, quantity: 1_000_000, confidence: 0.5 }]);
  });

  it('lists the items one per line and limits the schema to their ids', () => {
    const prompt = scanSystemPrompt([{ id: A, name: 'Bath\nTowel', category: 'Linen' }]);
    expect(prompt).toContain(`${A} | Bath Towel | Linen`);
    const { schema } = scanResponseSchema([A, B]);
    expect(JSON.stringify(schema)).toContain(JSON.stringify({ type: 'string', enum: [A, B] }));
  });
});
