/**
 * The expired-trial gate (docs/product.md "Screens: Expired-trial gate"): replaces a screen with 'Subscription
 * Required' when the trial has expired and there is no active subscription.
 */
import type { ReactNode } from 'react';
import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { useSubscriptionStatus } from '../lib/queries/get-subscription-status';
import { isAccessBlocked } from '../lib/subscription-access';
import { buttonClasses } from './ui/Button';
import { PageSpinner } from './ui/PageSpinner';

interface SubscriptionGateProps {
  /** The screen's own sentence, e.g. 'Your trial has expired. Please subscribe to continue managing units.' */
  message: string;
  children: ReactNode;
}

/**
 * Renders `children`, or the gate while access is blocked. When the status cannot be read the
 * screen is shown; the server refuses blocked actions anyway.
 */
export function SubscriptionGate({ message, children }: SubscriptionGateProps) {
  const { data: status, isPending } = useSubscriptionStatus();
  if (isPending) return <PageSpinner />;
  if (!status || !isAccessBlocked(status)) return children;
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center shadow-sm">
      <span className="flex size-14 items-center justify-center rounded-full bg-amber-100 text-amber-700">
        <Lock className="size-7" aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-bold text-slate-900">Subscription Required</h1>
      <p className="text-base text-slate-600">{message}</p>
      <Link to="/subscription" className={buttonClasses('primary')}>
        View Plans
      </Link>
    </div>
  );
}
