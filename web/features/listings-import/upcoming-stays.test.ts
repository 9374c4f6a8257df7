import { describe, expect, it } from 'vitest';
import { stayLine } from './UpcomingStays';

describe('upcoming stays', () => {
  it('reads dates as the listing calendar shows them, with nights and guests', () => {
    const stay = { id: '1', source: 'hostaway' as const, arrival_date: '2026-11-25', departure_date: '2026-11-28', nights: 3, guests: 3, adults: 2, children: 1, status: 'new', channel: null };
    expect(stayLine(stay)).toBe('Wed, Nov 25 – Sat, Nov 28 · 3 nights · 3 guests (2 adults, 1 child)');
    expect(stayLine({ ...stay, nights: 1, guests: 1, adults: null, children: null })).toBe('Wed, Nov 25 – Sat, Nov 28 · 1 night · 1 guest');
  });
});
