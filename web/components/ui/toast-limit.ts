/**
 * How many toasts a phone shows at once (docs/product.md "Messages", decision 053): at most
 * {@link VISIBLE_TOASTS}; react-hot-toast keeps up to 20 and has no such limit of its own, so the
 * app closes the extra ones as they come.
 */

/** The most toasts on screen at once: two stay clear of the screen's content on a 390 × 844 phone. */
export const VISIBLE_TOASTS = 2;

/** The part of a react-hot-toast toast the limit reads. */
export interface ShownToast {
  id: string;
  type: 'success' | 'error' | 'loading' | 'blank' | 'custom';
  visible: boolean;
  createdAt: number;
}

/**
 * The ids of the toasts to close so that at most `limit` stay visible: the oldest go first, and an
 * error — which otherwise stays until the person closes it — only once no other toast is left to
 * close, so a success cannot push away an error not yet read.
 */
export function toastsBeyondLimit(toasts: readonly ShownToast[], limit = VISIBLE_TOASTS): string[] {
  const visible = toasts.filter((t) => t.visible);
  const extra = visible.length - limit;
  if (extra <= 0) return [];
  const oldestFirst = [...visible].sort((a, b) => a.createdAt - b.createdAt);
  const order = [...oldestFirst.filter((t) => t.type !== 'error'), ...oldestFirst.filter((t) => t.type === 'error')];
  return order.slice(0, extra).map((t) => t.id);
}
