/**
 * /forecast (docs/product.md "Screens: Forecast"): the properties that would start a check-in
 * short over the next 3, 7 or 14 days (`?horizon=`, 7 by default), in two sections — those where
 * an item runs out before a check-in, then those only below minimum — most urgent first, each with
 * what to bring, and the pick lists of their garages. Without stays it says where stays come from.
 */
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CalendarX, CircleCheck, ClipboardList } from 'lucide-react';
import { DEFAULT_FORECAST_HORIZON, FORECAST_HORIZONS, type ForecastAnswer, type ShortUnitForecast } from '../../../common/contracts/forecast';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { buttonClasses } from '../../components/ui/Button';
import { LoadError } from '../../components/ui/LoadError';
import { PageHeader } from '../../components/ui/PageHeader';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useForecast } from './api/get-forecast';
import { HorizonChoice } from './components/HorizonChoice';
import { PropertyForecastCard } from './components/PropertyForecastCard';
import { ServiceLevelChoice } from './components/ServiceLevelChoice';
import { forecastEmptyState, forecastSections, garagesOf, moreShortText } from './forecast-text';

/** The horizon asked by `?horizon=`, the default when it is missing or not one of 3, 7, 14. */
function useHorizon(): [number, (days: number) => void] {
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('horizon'));
  const horizon = (FORECAST_HORIZONS as readonly number[]).includes(asked) ? asked : DEFAULT_FORECAST_HORIZON;
  const setHorizon = (days: number) => setParams((current) => {
    const next = new URLSearchParams(current);
    next.set('horizon', String(days));
    return next;
  }, { replace: true });
  return [horizon, setHorizon];
}

function EmptyState({ kind, horizonDays }: { kind: 'no-stays' | 'none-short'; horizonDays: number }) {
  const Icon = kind === 'no-stays' ? CalendarX : CircleCheck;
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center" data-testid="forecast-empty">
      <Icon className={`size-10 ${kind === 'no-stays' ? 'text-slate-400' : 'text-green-600'}`} aria-hidden="true" />
      {kind === 'no-stays' ? (
        <>
          <h2 className="text-xl font-semibold text-slate-900">{`No stays in the next ${horizonDays} days`}</h2>
          <p className="max-w-md text-base text-slate-600">
            The forecast counts the stays of your properties. They come from Hostaway (Import Listings on Units) or from a calendar link on a property&apos;s page.
          </p>
          <Link to="/units" className={buttonClasses('secondary')}>
            Go to Units
          </Link>
        </>
      ) : (
        <h2 className="text-xl font-semibold text-slate-900">{`No unit runs short in the next ${horizonDays} days`}</h2>
      )}
    </div>
  );
}

/**
 * One of the two lists of the screen, its count in the heading (the properties listed); left out
 * when it has none. `kind` names it for the tests (`forecast-section-{kind}`).
 */
function PropertySection({
  kind,
  title,
  count,
  properties,
  horizonDays,
}: {
  kind: string;
  title: string;
  /** Over every property short, listed or not. */
  count: number;
  properties: ShortUnitForecast[];
  horizonDays: number;
}) {
  const headingId = useId();
  if (properties.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2" data-testid={`forecast-section-${kind}`}>
      <h2 id={headingId} className={`flex items-center gap-2 text-lg font-semibold ${kind === 'runs-out' ? 'text-red-700' : 'text-amber-800'}`}>
        {title}
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-base text-slate-800 tabular-nums" data-testid="forecast-section-count">
          {count}
        </span>
      </h2>
      <div className="grid gap-2 lg:grid-cols-2">
        {properties.map((property) => (
          <PropertyForecastCard key={property.unit_id} property={property} horizonDays={horizonDays} />
        ))}
      </div>
    </section>
  );
}

function ForecastList({ answer }: { answer: ForecastAnswer }) {
  const empty = forecastEmptyState(answer);
  if (empty) return <EmptyState kind={empty} horizonDays={answer.horizon_days} />;
  const garages = garagesOf(answer.properties);
  const more = moreShortText(answer);
  const sections = forecastSections(answer.properties);
  return (
    <div className="flex flex-col gap-4">
      {garages.length > 0 && (
        <nav aria-label="Pick lists" className="flex flex-wrap gap-2">
          {garages.map((garage) => (
            <Link key={garage.id} to={`/garages/${encodeURIComponent(garage.id)}/pick-list`} className={buttonClasses('secondary')}>
              <ClipboardList className="size-5" aria-hidden="true" />
              {`Pick list: ${garage.name}`}
            </Link>
          ))}
        </nav>
      )}
      <PropertySection
        kind="runs-out"
        title="Runs out before a check-in"
        count={answer.properties_running_out}
        properties={sections.runsOut}
        horizonDays={answer.horizon_days}
      />
      <PropertySection
        kind="below-minimum"
        title="Below minimum at a check-in"
        count={answer.properties_short - answer.properties_running_out}
        properties={sections.belowMinimum}
        horizonDays={answer.horizon_days}
      />
      {more && <p className="text-base text-slate-600">{more}</p>}
    </div>
  );
}

function ForecastScreen() {
  const [horizon, setHorizon] = useHorizon();
  const forecast = useForecast(horizon);
  let content;
  if (forecast.data) {
    content = (
      <div className="flex flex-col gap-4">
        <ServiceLevelChoice level={forecast.data.service_level} />
        <ForecastList answer={forecast.data} />
      </div>
    );
  }
  else if (forecast.isError) content = <LoadError onRetry={() => void forecast.refetch()} />;
  else content = <PageSpinner />;
  return (
    <>
      <PageHeader
        title="Forecast"
        subtitle="Units that would run short before a guest arrives"
        actions={<HorizonChoice value={horizon} onChange={setHorizon} />}
      />
      <div aria-busy={forecast.isFetching || undefined}>{content}</div>
    </>
  );
}

/** The Forecast screen behind the expired-trial gate. */
export function ForecastRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to see the forecast.">
      <ForecastScreen />
    </SubscriptionGate>
  );
}
