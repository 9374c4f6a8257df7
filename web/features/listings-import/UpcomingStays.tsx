/**
 * "Upcoming stays" on a unit's page (docs/product.md "Stays", "Import from Hostaway"): its stays
 * from every source under way or arriving in the next 14 days, with their dates, nights, guests and
 * where each booking is listed (one booking listed by several sources is one stay).
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { upcomingStay, type UpcomingStay } from '../../../common/contracts/listings-import';
import { Card } from '../../components/ui/Card';
import { LoadError } from '../../components/ui/LoadError';
import { Spinner } from '../../components/ui/Spinner';
import { apiFetch } from '../../lib/api-fetch';
import { formatCalendarDay } from '../../lib/format';

/** 'Wed, Nov 25 – Sat, Nov 28 · 3 nights · 3 guests (2 adults, 1 child)'. */
export function stayLine(s: UpcomingStay): string {
  const parts = [`${formatCalendarDay(s.arrival_date)} – ${formatCalendarDay(s.departure_date)}`];
  if (s.nights !== null) parts.push(`${s.nights} ${s.nights === 1 ? 'night' : 'nights'}`);
  if (s.guests !== null) {
    const detail = s.adults !== null ? ` (${s.adults} ${s.adults === 1 ? 'adult' : 'adults'}${s.children ? `, ${s.children} ${s.children === 1 ? 'child' : 'children'}` : ''})` : '';
    parts.push(`${s.guests} ${s.guests === 1 ? 'guest' : 'guests'}${detail}`);
  }
  return parts.join(' · ');
}

/**
 * Where a stay is listed: its channel (or source) and the other calendar links that list the same
 * booking, counted once ('Airbnb · also on Vrbo'); null when nothing is known.
 */
export function listedText(s: UpcomingStay): string | null {
  const own = s.channel ?? (s.source === 'hostaway' ? 'Hostaway' : s.source === 'calendar' ? 'Calendar link' : null);
  const others = [...new Set(s.also_listed_by.map((o) => o.channel ?? 'another calendar link'))];
  if (others.length === 0) return own;
  return `${own ?? 'Listed'} · also on ${others.join(', ')}`;
}

export function UpcomingStays({ unitId }: { unitId: string }) {
  const stays = useQuery({
    queryKey: ['units', unitId, 'stays'],
    queryFn: ({ signal }) => apiFetch(`/api/units/${unitId}/stays`, { schema: z.array(upcomingStay), signal }),
  });
  let content;
  if (stays.isPending) content = <Spinner className="size-6" label="Loading stays" />;
  else if (stays.isError) content = <LoadError onRetry={() => void stays.refetch()} />;
  else if (stays.data.length === 0) content = <p className="text-base text-slate-600">No stays in the next 14 days</p>;
  else
    content = (
      <ul className="flex flex-col divide-y divide-slate-200">
        {stays.data.map((s) => (
          <li key={`${s.source}:${s.id}`} className="py-2 text-base text-slate-800">
            {stayLine(s)}
            {listedText(s) && <span className="block text-sm text-slate-500">{listedText(s)}</span>}
          </li>
        ))}
      </ul>
    );
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-6" aria-labelledby="unit-stays-heading">
      <h2 id="unit-stays-heading" className="text-xl font-semibold text-slate-900">
        Upcoming stays
      </h2>
      {content}
    </Card>
  );
}
