/**
 * One plan on the Subscription screen (docs/product.md "Screens: Subscription"): name, description, price for the
 * chosen interval, limits, features with a tick or a cross, and Subscribe — or 'Current Plan',
 * disabled, with a badge, on the plan the tenant is subscribed to.
 */
import { useId } from 'react';
import { Check, X } from 'lucide-react';
import type { Tier } from '../../../../common/contracts/billing';
import { Button } from '../../../components/ui/Button';
import { featureLabels, listedFeatures, planPrice, tierLimits, type BillingInterval } from '../plan-display';

interface TierCardProps {
  tier: Tier;
  interval: BillingInterval;
  isCurrent: boolean;
  /** This card's checkout is being started. */
  isBusy: boolean;
  /** Another card's checkout is being started. */
  isDisabled: boolean;
  onSubscribe: (tier: Tier) => void;
}

function FeatureLine({ label, included }: { label: string; included: boolean }) {
  return (
    <li className={`flex items-start gap-2 ${included ? 'text-slate-800' : 'text-slate-500'}`}>
      {included ? (
        <Check className="mt-0.5 size-5 shrink-0 text-green-600" aria-hidden="true" />
      ) : (
        <X className="mt-0.5 size-5 shrink-0 text-slate-400" aria-hidden="true" />
      )}
      <span>
        {label}
        <span className="sr-only">{included ? ' (included)' : ' (not included)'}</span>
      </span>
    </li>
  );
}

/** Renders the card. */
export function TierCard({ tier, interval, isCurrent, isBusy, isDisabled, onSubscribe }: TierCardProps) {
  const headingId = useId();
  const price = planPrice(tier, interval);
  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex flex-col rounded-xl border bg-white p-5 shadow-sm ${
        isCurrent ? 'border-blue-600 ring-2 ring-blue-600' : 'border-slate-200'
      }`}
    >
      {isCurrent && (
        <span className="absolute -top-3 left-5 rounded-full bg-blue-700 px-3 py-0.5 text-sm font-semibold text-white">Current Plan</span>
      )}
      <h3 id={headingId} className="text-xl font-bold text-slate-900">
        {tier.name}
      </h3>
      <p className="mt-1 text-base text-slate-600">{tier.description}</p>
      <p className="mt-4 flex items-baseline gap-1" data-testid="tier-price">
        <span className="text-4xl font-bold tracking-tight text-slate-900">{price.amount}</span>
        <span className="text-base text-slate-600">{price.period}</span>
      </p>

      <ul className="mt-5 flex flex-col gap-2 border-t border-slate-100 pt-4 text-base text-slate-800" aria-label="Limits">
        {tierLimits(tier).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <ul className="mt-4 mb-6 flex flex-col gap-2 border-t border-slate-100 pt-4 text-base" aria-label="Features">
        {listedFeatures.map((feature) => (
          <FeatureLine key={feature} label={featureLabels[feature]} included={tier.features[feature] ?? false} />
        ))}
      </ul>

      <Button
        className="mt-auto w-full"
        variant={isCurrent ? 'secondary' : 'primary'}
        disabled={isCurrent || isDisabled}
        isBusy={isBusy}
        onClick={() => onSubscribe(tier)}
      >
        {isCurrent ? 'Current Plan' : 'Subscribe'}
      </Button>
    </article>
  );
}
