/** The units list's search box: matches the name or the address, ignoring case (docs/product.md "Screens: Units"). */
import type { Unit } from '../../../common/contracts/stock';

/** The units whose name or address contains `query` (trimmed, any case); all of them for an empty query. */
export function filterUnits<T extends Pick<Unit, 'name' | 'address'>>(units: readonly T[], query: string): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...units];
  return units.filter((unit) => unit.name.toLocaleLowerCase().includes(needle) || unit.address.toLocaleLowerCase().includes(needle));
}
