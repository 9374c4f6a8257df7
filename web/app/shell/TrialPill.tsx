/**
 * The 'Trial: N days left' pill with a Subscribe link, shown during an active trial (docs/product.md
 * "Screens: Route table"). It sits at the top of the screen's content, in the flow of the page, so
 * it never covers a button; its close button hides it for the rest of the browser session (the
 * sidebar's plan badge keeps the way to subscribe).
 */
import { useState } from 'react';
import { X } from 'lucide-react';
import { Link } from 'react-router';
import { useSubscriptionStatus } from '../../lib/queries/get-subscription-status';
import { isInActiveTrial } from '../../lib/subscription-access';

const HIDDEN_KEY = 'trial-pill-hidden';

/** Renders the pill while the tenant is in an active trial, unless hidden in this session. */
export function TrialPill() {
  const { data: status } = useSubscriptionStatus();
  const [hidden, setHidden] = useState(() => sessionStorage.getItem(HIDDEN_KEY) === 'yes');
  if (!status || !isInActiveTrial(status) || hidden) return null;
  const hide = () => {
    sessionStorage.setItem(HIDDEN_KEY, 'yes');
    setHidden(true);
  };
  return (
    <div
      className="mb-4 ml-auto flex w-fit max-w-full items-center gap-2 rounded-full bg-amber-100 py-1 pr-1 pl-4 text-amber-950 ring-1 ring-amber-300 print:hidden"
      data-testid="trial-pill"
    >
      <span className="text-sm font-semibold">{`Trial: ${status.days_remaining} days left`}</span>
      <Link
        to="/subscription"
        className="inline-flex min-h-11 items-center rounded-full bg-amber-700 px-4 text-sm font-semibold text-white hover:bg-amber-800"
      >
        Subscribe
      </Link>
      <button
        type="button"
        onClick={hide}
        aria-label="Hide the trial reminder"
        className="flex size-11 items-center justify-center rounded-full text-amber-950 hover:bg-amber-200"
      >
        <X className="size-5" aria-hidden="true" />
      </button>
    </div>
  );
}
