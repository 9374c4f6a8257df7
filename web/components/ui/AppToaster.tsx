/**
 * The app's toasts (docs/product.md "Messages", decision 053): at the top, below the phone's
 * header (`--toast-top`, styles.css), so they never cover the header or its menu button, nor the
 * buttons at the bottom of a dialog or of the screen; at most two at once; successes go after 2 s
 * and other messages after 4 s (SPEC), errors stay until closed with their ✕ button.
 */
import { useEffect } from 'react';
import toast, { ToastBar, Toaster, useToasterStore } from 'react-hot-toast';
import { X } from 'lucide-react';
import { toastsBeyondLimit } from './toast-limit';

/** Renders the toasts; mounted once, at the app root. */
export function AppToaster() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    for (const id of toastsBeyondLimit(toasts)) toast.dismiss(id);
  }, [toasts]);
  return (
    <Toaster
      position="top-center"
      gutter={8}
      containerClassName="app-toasts"
      // Clipped at its top: a closing toast slides up, and must not slide over the header.
      containerStyle={{ top: 'var(--toast-top)', overflow: 'hidden' }}
      toastOptions={{
        duration: 4000,
        success: { duration: 2000 },
        error: { duration: Infinity },
        style: { fontSize: '1rem' },
      }}
    >
      {(shown) => (
        <ToastBar toast={shown}>
          {({ icon, message }) => (
            <>
              {icon}
              {message}
              {shown.type === 'error' && (
                <button
                  type="button"
                  aria-label="Close message"
                  className="-my-2 -mr-2 flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
                  onClick={() => toast.dismiss(shown.id)}
                >
                  <X className="size-5" aria-hidden="true" />
                </button>
              )}
            </>
          )}
        </ToastBar>
      )}
    </Toaster>
  );
}
