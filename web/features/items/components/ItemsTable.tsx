/**
 * The items table (docs/product.md "Screens: Items"): Item, Count Cost ($), Category, Minimum Threshold, Actions.
 * On phones each row is drawn as a card with the column name before each value, so nothing has
 * to scroll sideways; it stays one table for screen readers either way.
 */
import { Pencil, Trash2, TriangleAlert } from 'lucide-react';
import type { Item } from '../../../../common/contracts/stock';
import { IconButton } from '../../../components/ui/IconButton';
import { formatDollars, formatPerStay } from '../../../lib/format';
import { usePermission } from '../../../lib/use-permission';

interface ItemsTableProps {
  items: readonly Item[];
  onEdit: (item: Item) => void;
  onDelete: (item: Item) => void;
}

const headClass = 'px-4 py-3 text-sm font-semibold text-slate-700';
// On phones a cell shows its column name (data-label) before the value.
const cellClass = 'sm:px-4 sm:py-3 max-sm:flex max-sm:flex-col max-sm:gap-0.5 max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]';

/** Renders the table; the explicit roles keep table semantics where the phone layout changes `display`. */
export function ItemsTable({ items, onEdit, onDelete }: ItemsTableProps) {
  const canManage = usePermission('items').allowed;
  return (
    <div className="sm:overflow-hidden sm:rounded-xl sm:border sm:border-slate-200 sm:bg-white sm:shadow-sm">
      <table role="table" className="w-full text-left text-base">
        <thead className="bg-slate-50 max-sm:sr-only">
          <tr role="row">
            <th role="columnheader" scope="col" className={headClass}>
              Item
            </th>
            <th role="columnheader" scope="col" className={headClass}>
              Count Cost ($)
            </th>
            <th role="columnheader" scope="col" className={headClass}>
              Category
            </th>
            <th role="columnheader" scope="col" className={headClass}>
              Minimum Threshold
            </th>
            <th role="columnheader" scope="col" className={`${headClass} text-right`}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="max-sm:flex max-sm:flex-col max-sm:gap-3">
          {items.map((item) => (
            <tr
              key={item.id}
              role="row"
              className="border-slate-200 sm:border-t max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-xl max-sm:border max-sm:bg-white max-sm:p-4 max-sm:shadow-sm"
            >
              <td role="cell" className="font-semibold break-words text-slate-900 sm:px-4 sm:py-3 max-sm:col-span-2 max-sm:text-lg">
                {item.name}
                {item.usage_per_stay_default != null && (
                  <span className="block text-sm font-normal text-slate-600">{`Default usage: ${formatPerStay(item.usage_per_stay_default)}`}</span>
                )}
                {item.service_level != null && <span className="block text-sm font-normal text-slate-600">{`Service level: ${item.service_level} %`}</span>}
              </td>
              <td role="cell" data-label="Count Cost ($)" className={`${cellClass} tabular-nums`}>
                {formatDollars(item.count_cost)}
              </td>
              <td role="cell" data-label="Category" className={`${cellClass} break-words`}>
                {item.category}
              </td>
              <td role="cell" data-label="Minimum Threshold" className={cellClass}>
                <span className="inline-flex items-center gap-1.5 tabular-nums">
                  {item.minimum_threshold}
                  {item.minimum_threshold > 0 && (
                    <TriangleAlert className="size-4 text-amber-500" aria-label="Low-stock warning is set" role="img" />
                  )}
                </span>
              </td>
              <td role="cell" className="sm:px-4 sm:py-1 max-sm:self-end">
                <div className="flex justify-end gap-1">
                  {canManage && <IconButton icon={Pencil} label={`Edit ${item.name}`} tone="primary" onClick={() => onEdit(item)} />}
                  {canManage && <IconButton icon={Trash2} label={`Delete ${item.name}`} tone="danger" onClick={() => onDelete(item)} />}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
