/** Takes the place of content that failed to load, with a way to try again. */
import { RefreshCw } from 'lucide-react';
import { Button } from './Button';

/** Renders the retry panel; the failure itself has been announced by a toast. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
      <p className="text-base text-slate-700">This content could not be loaded.</p>
      <Button variant="secondary" onClick={onRetry}>
        <RefreshCw className="size-4" aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
