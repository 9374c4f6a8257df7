/** At most two toasts on screen; errors are closed last. */
import { describe, expect, it } from 'vitest';
import { toastsBeyondLimit, type ShownToast } from './toast-limit';

const shown = (id: string, type: ShownToast['type'], createdAt: number, visible = true): ShownToast => ({ id, type, createdAt, visible });

describe('toastsBeyondLimit', () => {
  it('closes nothing while two or fewer are visible', () => {
    expect(toastsBeyondLimit([shown('a', 'success', 1), shown('b', 'blank', 2)])).toEqual([]);
    expect(toastsBeyondLimit([shown('a', 'success', 1), shown('b', 'blank', 2), shown('c', 'success', 3, false)])).toEqual([]);
  });

  it('closes the oldest beyond two', () => {
    expect(toastsBeyondLimit([shown('c', 'success', 3), shown('b', 'blank', 2), shown('a', 'success', 1)])).toEqual(['a']);
    expect(toastsBeyondLimit([shown('d', 'success', 4), shown('c', 'success', 3), shown('b', 'blank', 2), shown('a', 'success', 1)])).toEqual(['a', 'b']);
  });

  it('keeps an error before older successes, and closes the oldest error when only errors are left', () => {
    expect(toastsBeyondLimit([shown('c', 'success', 3), shown('b', 'success', 2), shown('a', 'error', 1)])).toEqual(['b']);
    expect(toastsBeyondLimit([shown('c', 'error', 3), shown('b', 'error', 2), shown('a', 'error', 1)])).toEqual(['a']);
  });
});
