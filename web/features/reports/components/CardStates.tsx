/** What a report card shows in place of its content while it loads, or when loading failed. */
import { Link } from 'react-router';
import { RefreshCw } from 'lucide-react';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { actionErrorMessage, hasErrorCode } from '../../../lib/api-error';

/** A spinner the height of a chart. */
export function CardSpinner() {
  return (
    <div className="flex h-64 items-center justify-center text-blue-700">
      <Spinner className="size-8" label="Loading" />
    </div>
  );
}

interface CardLoadErrorProps {
  error: unknown;
  /** The screen's text when the server gave no reason, e.g. 'Failed to fetch cost data'. */
  fallback: string;
  onRetry: () => void;
}

/**
 * The server's reason when it gave one (a plan without the feature, 403) with the way to the
 * plans; otherwise `fallback` with Try again. The toast has already told the failure.
 */
export function CardLoadError({ error, fallback, onRetry }: CardLoadErrorProps) {
  return (
    <div className="flex flex-col items-center gap-4 px-4 py-10 text-center">
      <p className="text-base text-slate-700">{actionErrorMessage(error, fallback)}</p>
      {hasErrorCode(error, 'FORBIDDEN') ? (
        <Link to="/subscription" className={buttonClasses('primary')}>
          View Plans
        </Link>
      ) : (
        <Button variant="secondary" onClick={onRetry}>
          <RefreshCw className="size-4" aria-hidden="true" />
          Try again
        </Button>
      )}
    </div>
  );
}
