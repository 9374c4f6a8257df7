import { describe, expect, it } from 'vitest';
import { listedText, stayLine } from './UpcomingStays';

const stay = {
  id: '1',
  source: 'hostaway' as const,
  arrival_date: '2026-11-25',
  departure_date: '2026-11-28',
  nights: 3,
  guests: 3,
  adults: 2,
  children: 1,
  status: 'new',
  channel: null,
  also_listed_by: [],
};

describe('upcoming stays', () => {
  it('reads dates as the listing calendar shows them, with nights and guests', () => {
    expect(stayLine(stay)).toBe('Wed, Nov 25 – Sat, Nov 28 · 3 nights · 3 guests (2 adults, 1 child)');
    expect(stayLine({ ...stay, nights: 1, guests: 1, adults: null, children: null })).toBe('Wed, Nov 25 – Sat, Nov 28 · 1 night · 1 guest');
  });

  it('says where a booking is listed, the other links that list it too once each', () => {
    expect(listedText(stay)).toBe('Hostaway');
    expect(listedText({ ...stay, channel: 'Airbnb' })).toBe('Airbnb');
    expect(listedText({ ...stay, source: 'demo' })).toBeNull();
    expect(listedText({ ...stay, channel: 'Airbnb', also_listed_by: [{ channel: 'Airbnb' }] })).toBe('Airbnb · also on Airbnb');
    expect(listedText({ ...stay, source: 'calendar', also_listed_by: [{ channel: 'Vrbo' }, { channel: null }, { channel: 'Vrbo' }] })).toBe(
      'Calendar link · also on Vrbo, another calendar link',
    );
  });
});
