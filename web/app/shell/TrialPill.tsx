/** The floating "Trial: N days left" pill with a Subscribe link, shown during an active trial. */
import { Link } from 'react-router';
import { useSubscriptionStatus } from '../../lib/queries/get-subscription-status';
import { isInActiveTrial } from '../../lib/subscription-access';

/** Renders the pill only while the tenant is in an active trial. */
export function TrialPill() {
  const { data: status } = useSubscriptionStatus();
  if (!status || !isInActiveTrial(status)) return null;
  return (
    <div
      className="fixed right-4 bottom-4 z-20 flex items-center gap-3 rounded-full bg-amber-100 py-1.5 pr-1.5 pl-4 text-amber-950 shadow-lg ring-1 ring-amber-300"
      style={{ marginBottom: 'env(safe-area-inset-bottom)' }}
      data-testid="trial-pill"
    >
      <span className="text-sm font-semibold">{`Trial: ${status.days_remaining} days left`}</span>
      <Link
        to="/subscription"
        className="inline-flex min-h-10 items-center rounded-full bg-amber-600 px-4 text-sm font-semibold text-white hover:bg-amber-700"
      >
        Subscribe
      </Link>
    </div>
  );
}
