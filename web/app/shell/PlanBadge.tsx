/** The plan badge in the sidebar: active tier, trial days left, or no plan (docs/product.md "Screens: Route table"). */
import { BadgeCheck, Clock, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { hasErrorCode } from '../../lib/api-error';
import { useSubscriptionStatus } from '../../lib/queries/get-subscription-status';
import { isInActiveTrial } from '../../lib/subscription-access';

interface BadgeProps {
  icon: ReactNode;
  title: string;
  detail: string;
  tone: string;
  /** A link under the detail, e.g. to subscribe. */
  action?: ReactNode;
}

function Badge({ icon, title, detail, tone, action }: BadgeProps) {
  return (
    <div className={`flex items-start gap-3 rounded-lg px-3 py-3 ${tone}`} data-testid="plan-badge">
      {icon}
      <div className="min-w-0">
        <p className="truncate font-semibold">{title}</p>
        <p className="text-sm opacity-90">{detail}</p>
        {action}
      </div>
    </div>
  );
}

const noPlan = (
  <Badge
    icon={<TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />}
    title="No Active Plan"
    detail="Subscribe to continue"
    tone="bg-red-500/15 text-red-100"
  />
);

/** Renders the badge for the tenant's current subscription status. */
export function PlanBadge() {
  const { data: status, error, isPending } = useSubscriptionStatus();
  if (isPending) return <div className="h-16 animate-pulse rounded-lg bg-white/10" aria-hidden="true" />;
  // Before the company exists there is no plan; any other failure stays quiet (docs/product.md "Messages").
  if (error) return hasErrorCode(error, 'NO_TENANT') ? noPlan : null;
  if (status.subscription_status === 'active') {
    return (
      <Badge
        icon={<BadgeCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />}
        title={status.tier_name ?? 'Current plan'}
        detail="Active Subscription"
        tone="bg-green-500/15 text-green-100"
      />
    );
  }
  if (isInActiveTrial(status)) {
    return (
      <Badge
        icon={<Clock className="mt-0.5 size-5 shrink-0" aria-hidden="true" />}
        title="Trial Period"
        detail={`${status.days_remaining} days remaining`}
        tone="bg-amber-400/15 text-amber-100"
        // The trial pill can be hidden for the session; the way to subscribe stays here.
        action={
          <Link to="/subscription" className="mt-1 inline-flex min-h-11 items-center text-sm font-semibold text-amber-100 underline hover:text-white">
            Subscribe
          </Link>
        }
      />
    );
  }
  return noPlan;
}
