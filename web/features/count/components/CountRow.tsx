/**
 * One item on the count screen (docs/product.md "Screens: Count"): its name in full, the expected
 * quantity (a tap sets the count back to it), minus and plus, and the counted number on the
 * number pad. A number that is not a whole one from 0 is refused here with the field's message
 * and counts nothing.
 */
import { useId, useState } from 'react';
import { Minus, Plus } from 'lucide-react';
import { grouped, MAX_QUANTITY, wholeNumber } from '../../../../common/contracts/fields';
import { IconButton } from '../../../components/ui/IconButton';
import { numberText } from '../../../lib/number-text';

const countedText = numberText(wholeNumber('Counted quantity'));

interface CountRowProps {
  name: string;
  category: string | undefined;
  /** What the screen expects here: the stock when the item was first counted, else the stock now. */
  expected: number;
  counted: number;
  /** The stock now, when it moved after the item was counted (the server refused the count). */
  movedTo: number | undefined;
  onCount: (counted: number) => void;
}

/** Renders the row; `data-testid="count-row"`. */
export function CountRow({ name, category, expected, counted, movedTo, onCount }: CountRowProps) {
  const id = useId();
  /** What is typed, while it is typed; null shows the count. */
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const change = counted - expected;

  const count = (value: number) => {
    setText(null);
    setError(undefined);
    onCount(Math.min(MAX_QUANTITY, Math.max(0, value)));
  };
  const type = (value: string) => {
    setText(value);
    const parsed = countedText.safeParse(value.trim());
    if (parsed.success) {
      setError(undefined);
      onCount(parsed.data);
    } else {
      setError(parsed.error.issues[0]?.message);
    }
  };

  return (
    <li className={`flex flex-col gap-2 py-3 ${movedTo !== undefined ? 'rounded-lg bg-amber-50 px-2' : ''}`} data-testid="count-row">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-base font-semibold break-words text-slate-900">{name}</p>
          {category && <p className="text-sm break-words text-slate-600">{category}</p>}
        </div>
        {change !== 0 && (
          <span
            className={`shrink-0 rounded-full px-2.5 py-0.5 text-sm font-semibold tabular-nums ${change > 0 ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800'}`}
            data-testid="count-difference"
          >
            {change > 0 ? `+${change}` : `−${-change}`}
          </span>
        )}
      </div>
      {movedTo !== undefined && (
        <p className="text-sm text-amber-900" role="status">{`Stock moved while you counted: now ${movedTo}. Check the count and save again.`}</p>
      )}
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={() => count(expected)}
          className="flex min-h-12 min-w-24 flex-col items-start justify-center rounded-lg px-2 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          {/* The name is the visible text plus the rest in hidden text, so that it reads as what it shows. */}
          <span className="text-xs text-slate-600">Expected</span>{' '}
          <span className="text-lg font-semibold text-slate-900 tabular-nums">{expected}</span>
          <span className="sr-only">{` ${name}: count ${expected}`}</span>
        </button>
        <div role="group" aria-label={`Count of ${name}`} className="ml-auto flex items-center gap-2">
          <IconButton icon={Minus} label={`Decrease ${name}`} outlined disabled={counted === 0} onClick={() => count(counted - 1)} className="size-12" />
          <label htmlFor={`${id}-counted`} className="sr-only">{`Counted ${name}`}</label>
          <input
            id={`${id}-counted`}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            enterKeyHint="next"
            autoComplete="off"
            maxLength={grouped(MAX_QUANTITY).length}
            value={text ?? String(counted)}
            onChange={(event) => type(event.target.value)}
            onFocus={(event) => event.target.select()}
            onBlur={() => !error && setText(null)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className={`min-h-12 w-20 rounded-lg border bg-white px-2 py-2 text-center text-lg text-slate-900 tabular-nums focus:outline-2 ${
              error ? 'border-red-500 focus:outline-red-500' : 'border-slate-300 focus:outline-blue-600'
            }`}
          />
          <IconButton icon={Plus} label={`Increase ${name}`} outlined disabled={counted >= MAX_QUANTITY} onClick={() => count(counted + 1)} className="size-12" />
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}
