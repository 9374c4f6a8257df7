import { describe, expect, it } from 'vitest';
import { batch } from './batch';

/** A batch runner whose batches the test settles by hand. */
function controlledRun() {
  const batches: { inputs: string[]; settle: (fail?: boolean) => void }[] = [];
  const run = (inputs: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ inputs, settle: (fail) => (fail ? reject(new Error(`batch ${inputs.join(',')} failed`)) : resolve(inputs.map((i) => i.toUpperCase()))) });
    });
  return { run, batches };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const keyOf = (input: string) => input[0];

describe('batch', () => {
  it('runs a lone call at once, and the calls that arrive meanwhile together in the next batch', async () => {
    const c = controlledRun();
    const press = batch(c.run, keyOf);
    const first = press('a1');
    expect(c.batches.map((b) => b.inputs)).toEqual([['a1']]);
    const waiting = [press('a2'), press('a3'), press('a4')];
    await tick();
    expect(c.batches).toHaveLength(1);
    c.batches[0]!.settle();
    expect(await first).toBe('A1');
    await tick();
    expect(c.batches.map((b) => b.inputs)).toEqual([['a1'], ['a2', 'a3', 'a4']]);
    c.batches[1]!.settle();
    expect(await Promise.all(waiting)).toEqual(['A2', 'A3', 'A4']);
    // Idle again: the next call runs alone at once.
    await tick();
    const again = press('a5');
    expect(c.batches).toHaveLength(3);
    c.batches[2]!.settle();
    expect(await again).toBe('A5');
  });

  it('keeps keys apart, caps a batch, and fails only the calls of a failed batch', async () => {
    const c = controlledRun();
    const press = batch(c.run, keyOf, { maxBatch: 2 });
    const a1 = press('a1');
    const b1 = press('b1');
    const later = [press('a2'), press('a3'), press('a4')];
    expect(c.batches.map((b) => b.inputs)).toEqual([['a1'], ['b1']]);
    c.batches[0]!.settle(true);
    await expect(a1).rejects.toThrow('batch a1 failed');
    await tick();
    expect(c.batches.at(-1)!.inputs).toEqual(['a2', 'a3']);
    c.batches.at(-1)!.settle();
    await tick();
    expect(c.batches.at(-1)!.inputs).toEqual(['a4']);
    c.batches.at(-1)!.settle();
    expect(await Promise.all(later)).toEqual(['A2', 'A3', 'A4']);
    c.batches[1]!.settle();
    expect(await b1).toBe('B1');
  });

  it('runs up to `lanes` batches of a key at once', async () => {
    const c = controlledRun();
    const press = batch(c.run, keyOf, { lanes: 2 });
    const calls = ['a1', 'a2', 'a3', 'a4'].map(press);
    expect(c.batches.map((b) => b.inputs)).toEqual([['a1'], ['a2']]);
    c.batches[1]!.settle();
    await tick();
    expect(c.batches.map((b) => b.inputs)).toEqual([['a1'], ['a2'], ['a3', 'a4']]);
    c.batches[0]!.settle();
    c.batches[2]!.settle();
    expect(await Promise.all(calls)).toEqual(['A1', 'A2', 'A3', 'A4']);
  });
});
