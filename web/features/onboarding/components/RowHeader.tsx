/** The title line of one repeated row (an item, a property) with its remove button. */
import { Trash2 } from 'lucide-react';

interface RowHeaderProps {
  title: string;
  onRemove: () => void;
  /** The last remaining row of a list that needs one cannot be removed. */
  canRemove: boolean;
}

/** Renders "Item 2" and a large trash button labelled "Remove Item 2". */
export function RowHeader({ title, onRemove, canRemove }: RowHeaderProps) {
  return (
    <div className="flex items-center justify-between">
      <h2 className="text-base font-semibold text-slate-800">{title}</h2>
      <button
        type="button"
        onClick={onRemove}
        disabled={!canRemove}
        aria-label={`Remove ${title}`}
        className="flex size-11 items-center justify-center rounded-lg text-red-600 hover:bg-red-50 disabled:text-slate-300 disabled:hover:bg-transparent"
      >
        <Trash2 className="size-5" aria-hidden="true" />
      </button>
    </div>
  );
}
