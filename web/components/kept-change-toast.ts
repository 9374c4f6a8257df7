/**
 * The toasts of a stock write that did not get the server's answer (web/lib/stock-write.ts,
 * docs/product.md "Messages"): kept on the phone to be sent later, or not sent because the network
 * failed, with Retry; a refusal by the server keeps the screen's own message.
 */
import toast from 'react-hot-toast';
import { actionErrorMessage } from '../lib/api-error';
import { ChangeKept, ChangeNotSent, isChangeKept } from '../lib/stock-write';
import { toastErrorWithRetry } from './ui/toasts';

/** One toast, however many changes are kept in a row (quick taps offline). */
export function toastKept(): void {
  toast.success(new ChangeKept().message, { id: 'change-kept', duration: 4000 });
}

/**
 * The toast for a failed stock write: kept ({@link toastKept}); the network at fault, with Retry,
 * which calls `retry` with the write's Idempotency-Key so that it is written once; otherwise the
 * server's reason or `fallback` (SPEC's text, e.g. 'Failed to update quantity').
 */
export function toastStockWriteFailure(error: unknown, fallback: string, retry: (idempotencyKey: string) => void): void {
  if (isChangeKept(error)) toastKept();
  else if (error instanceof ChangeNotSent) toastErrorWithRetry(error.message, () => retry(error.key));
  else toast.error(actionErrorMessage(error, fallback));
}
