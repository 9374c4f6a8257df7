/**
 * How much of the plan's limits the tenant uses, e.g. 'Units 3 of 50', so an operator near a
 * limit sees it before a create is refused.
 */
import { limitedResources, type LimitedResource } from '../../../../common/contracts/billing';
import { Card } from '../../../components/ui/Card';
import { useSubscriptionUsage } from '../api/get-subscription-usage';
import { isUnlimited, usageLevel, usageText, type UsageLevel } from '../plan-display';

const resourceLabels: Record<LimitedResource, string> = { units: 'Units', items: 'Items', garages: 'Garages', users: 'Users' };

const barClasses: Record<UsageLevel, string> = { ok: 'bg-blue-600', near: 'bg-amber-500', full: 'bg-red-600' };
const valueClasses: Record<UsageLevel, string> = { ok: 'text-slate-900', near: 'text-amber-800', full: 'text-red-700' };

function UsageLine({ resource, used, limit }: { resource: LimitedResource; used: number; limit: number }) {
  const level = usageLevel(used, limit);
  return (
    <div className="flex flex-col gap-1.5" data-testid={`usage-${resource}`}>
      <dt className="text-sm font-medium text-slate-600">{resourceLabels[resource]}</dt>
      <dd className={`text-lg font-semibold ${valueClasses[level]}`}>
        {usageText(used, limit)}
        {level === 'full' && <span className="ml-2 text-sm font-medium">Limit reached</span>}
      </dd>
      {/* The text above says it all; the bar only makes it quick to see. */}
      {!isUnlimited(limit) && (
        <dd aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-slate-100">
          <div className={`h-full rounded-full ${barClasses[level]}`} style={{ width: `${Math.min(100, (used / Math.max(limit, 1)) * 100)}%` }} />
        </dd>
      )}
    </div>
  );
}

/** Renders the usage once it is known; nothing when it cannot be read. */
export function UsageSummary() {
  const { data: usage } = useSubscriptionUsage();
  if (!usage) return null;
  return (
    <Card aria-labelledby="usage-heading" className="px-5 py-4">
      <h2 id="usage-heading" className="text-lg font-semibold text-slate-900">
        Usage
      </h2>
      <p className="text-sm text-slate-600">{`Limits of the ${usage.tier_name} plan`}</p>
      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-4 lg:grid-cols-4">
        {limitedResources.map((resource) => (
          <UsageLine key={resource} resource={resource} used={usage.used[resource]} limit={usage.limits[resource]} />
        ))}
      </dl>
    </Card>
  );
}
