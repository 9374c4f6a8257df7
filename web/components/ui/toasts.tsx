/**
 * The toasts beyond react-hot-toast's success and error (docs/product.md "Messages"): a warning,
 * for a save that left something out, a stock change with its Undo button, and an error with Retry.
 */
import toast from 'react-hot-toast';
import { CircleCheck, TriangleAlert } from 'lucide-react';

/** How long a toast with Undo stays: long enough to read it and reach the button with a thumb. */
export const UNDO_TOAST_MS = 6000;

/** A toast saying what was done and what was left out (e.g. rows a save skipped). */
export function toastWarning(message: string): void {
  toast(message, { icon: <TriangleAlert className="size-5 shrink-0 text-amber-600" aria-hidden="true" />, duration: UNDO_TOAST_MS });
}

/** The toast's button: a thumb-sized target (44 px high) beside the message. */
function ActionMessage({ message, label, onClick }: { message: string; label: string; onClick: () => void }) {
  return (
    <span className="flex items-center gap-3">
      <span>{message}</span>
      <button
        type="button"
        className="min-h-11 shrink-0 rounded-lg px-3 font-semibold text-blue-700 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-700"
        onClick={onClick}
      >
        {label}
      </button>
    </span>
  );
}

/**
 * A toast saying what a stock change did, with an Undo button for {@link UNDO_TOAST_MS}; pressing
 * it closes the toast and calls `onUndo` once. `warning` draws it as a warning (part of the change
 * could not be done).
 */
export function toastWithUndo(message: string, onUndo: () => void, warning = false): void {
  const icon = warning ? (
    <TriangleAlert className="size-5 shrink-0 text-amber-600" aria-hidden="true" />
  ) : (
    <CircleCheck className="size-5 shrink-0 text-green-600" aria-hidden="true" />
  );
  toast(
    (shown) => (
      <ActionMessage
        message={message}
        label="Undo"
        onClick={() => {
          toast.dismiss(shown.id);
          onUndo();
        }}
      />
    ),
    { icon, duration: UNDO_TOAST_MS },
  );
}

/**
 * An error toast with a Retry button: it stays until closed or retried (as every error, decision
 * 053); Retry closes it and calls `onRetry` once.
 */
export function toastErrorWithRetry(message: string, onRetry: () => void): void {
  toast.error((shown) => (
    <ActionMessage
      message={message}
      label="Retry"
      onClick={() => {
        toast.dismiss(shown.id);
        onRetry();
      }}
    />
  ));
}
