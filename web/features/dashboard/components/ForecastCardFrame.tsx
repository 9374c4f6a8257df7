/**
 * The frame of the dashboard card "Runs out before a check-in": its heading, a body of one fixed
 * least height and the link to the Forecast screen. It is part of the dashboard's first paint,
 * while the card's data and code load after it (decision 016): the body's height is reserved from
 * the start (a count line and three properties of two lines each), so the cards below do not move
 * when the forecast arrives; the link to the full list is one line whatever it says (a layout shift a phone's reader sees and Lighthouse counts).
 */
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CalendarClock } from 'lucide-react';
import { Card } from '../../../components/ui/Card';
import { Spinner } from '../../../components/ui/Spinner';
import { seeAllText } from '../forecast-card-text';

/**
 * Renders the frame around `children`, which fill the reserved body (a column); the link says how
 * many properties the full list on /forecast has once `propertiesShort` is known (one line either
 * way, so the frame's height holds).
 */
export function ForecastCardFrame({ children, propertiesShort = 0 }: { children: ReactNode; propertiesShort?: number }) {
  const headingId = useId();
  // min-w-0: the truncated names shrink with a phone-wide column instead of widening the page.
  return (
    <Card aria-labelledby={headingId} data-testid="forecast-card" className="flex min-w-0 flex-col gap-3 p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <CalendarClock className="size-5 text-red-700" aria-hidden="true" />
        Runs out before a check-in
      </h2>
      <div className="flex min-h-[12.25rem] flex-col gap-3">{children}</div>
      <Link to="/forecast" className="mt-auto min-h-11 self-start py-2 text-base font-medium text-blue-700 hover:underline" data-testid="forecast-card-all">
        {seeAllText(propertiesShort)}
      </Link>
    </Card>
  );
}

/** The frame while the card's code or data loads. */
export function ForecastCardLoading() {
  return (
    <ForecastCardFrame>
      <div className="flex flex-1 items-center justify-center">
        <Spinner className="size-6" label="Loading the forecast" />
      </div>
    </ForecastCardFrame>
  );
}
