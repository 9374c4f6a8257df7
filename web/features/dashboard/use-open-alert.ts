/**
 * Opening a stock alert of the dashboard (docs/product.md "Screens: Dashboard"): a unit alert opens
 * its unit's page at the alert's item, where the row can be restocked; a garage alert opens the Garages screen. An
 * alert names its stock row, not its unit, so the unit is found in the units list, read when an
 * alert is first touched and then kept. The list's query (and its classic zod contracts) loads
 * only then, outside the dashboard's first paint (decision 016).
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import type { DashboardAlert } from '../../../common/contracts/dashboard';

const loadUnitsQuery = async () => (await import('../../lib/queries/get-units')).unitsQuery;

/** `touch(alert)` starts reading what `open(alert)` needs; `opening` is the alert being opened. */
export function useOpenAlert() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [opening, setOpening] = useState<string>();

  const touch = (alert: DashboardAlert) => {
    if (alert.location_type === 'unit') void loadUnitsQuery().then((query) => queryClient.prefetchQuery(query));
  };
  const open = async (alert: DashboardAlert) => {
    if (alert.location_type === 'garage') {
      await navigate('/garages');
      return;
    }
    setOpening(alert.id);
    try {
      const units = await queryClient.fetchQuery(await loadUnitsQuery());
      const unit = units.find((candidate) => candidate.inventory.some((row) => row.id === alert.id));
      const row = unit?.inventory.find((candidate) => candidate.id === alert.id);
      // The unit's page scrolls to the item and marks it. Gone meanwhile (the row was removed):
      // the list of units is the next best place.
      await navigate(unit && row ? `/unit/${unit.id}?item=${row.item_id}` : '/units');
    } catch {
      toast.error('Failed to load units');
    } finally {
      setOpening(undefined);
    }
  };
  return { touch, open, opening };
}
