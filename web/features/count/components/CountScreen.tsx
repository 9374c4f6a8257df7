/**
 * The count screen of one place, garage or unit (docs/product.md "Screens: Count"), made for one
 * hand on a phone: every item it holds with the expected quantity, minus, plus and the number pad;
 * rows start at the expected quantity, so only what differs is touched. Search and a category
 * filter; items it does not hold are one tap away ("Not stocked here") and counted the same way.
 * The draft stays on the device until it is saved or discarded; leaving asks first. Save shows
 * the differences, then writes them in one request.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { ArrowLeft, ChevronDown, ChevronUp, Search } from 'lucide-react';
import type { Item } from '../../../../common/contracts/stock';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { actionErrorMessage, ApiError } from '../../../lib/api-error';
import { useSaveCount } from '../api/save-count';
import { isChangeKept } from '../../../lib/stock-write';
import { toastKept } from '../../../components/kept-change-toast';
import {
  changedLines,
  clearDraft,
  differenceSummary,
  draftKey,
  emptyDraft,
  loadDraft,
  storeDraft,
  withCount,
  withExpected,
  type CountDraft,
  type CountPlace,
  type Difference,
} from '../count-draft';
import { useLeaveGuard } from '../use-leave-guard';
import { CountRow } from './CountRow';

/** A stock row of the place: item and quantity now. */
export interface PlaceStock {
  item_id: string;
  item_name: string;
  quantity: number;
}

interface CountScreenProps {
  tenantId: string;
  place: CountPlace;
  placeName: string;
  /** Where Back, a save and a discard lead: the garages or the unit's page. */
  backTo: { path: string; label: string };
  stock: PlaceStock[];
  /** The company's items: categories, and what the place does not hold yet. */
  items: Item[];
  /** Reads the place's stock again (after a count refused because stock moved). */
  reload: () => Promise<PlaceStock[] | undefined>;
}

/** 'Draft from 10:42 restored', with the day too when it is not today's. */
function restoredNote(savedAt: string): string {
  const at = new Date(savedAt);
  const today = at.toDateString() === new Date().toDateString();
  const when = today ? at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : at.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  return `Draft from ${when} restored`;
}

/** Renders the screen. */
export function CountScreen({ tenantId, place, placeName, backTo, stock, items, reload }: CountScreenProps) {
  const id = useId();
  const save = useSaveCount();
  const key = draftKey(tenantId, place);
  const [draft, setDraft] = useState<CountDraft>(() => loadDraft(key) ?? emptyDraft());
  const [restored, setRestored] = useState(() => (changedLines(draft).length > 0 ? restoredNote(draft.savedAt) : null));
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState('');
  const [showAll, setShowAll] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  /** Stock now of items whose count the server refused because it moved since they were counted. */
  const [moved, setMoved] = useState<ReadonlyMap<string, number>>(new Map());

  useEffect(() => {
    storeDraft(key, draft);
  }, [key, draft]);
  // Opened from a card far down the garages, the count still starts at its top (the router keeps
  // the scroll). In braces: newer browsers' scrollTo returns a promise, which React would take
  // for the effect's cleanup.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);

  const lines = changedLines(draft);
  const guard = useLeaveGuard(lines.length > 0);

  const itemById = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);
  const held = useMemo(() => new Map(stock.map((row) => [row.item_id, row.quantity])), [stock]);
  const categories = useMemo(() => [...new Set(items.map((i) => i.category))].sort((a, b) => a.localeCompare(b)), [items]);
  const nameOf = (itemId: string) => itemById.get(itemId)?.name ?? stock.find((row) => row.item_id === itemId)?.item_name ?? 'Item';

  // The place's own rows, then items it does not hold that were counted; the rest on demand.
  const counted = new Set(Object.keys(draft.lines));
  const listed = [
    ...stock.map((row) => ({ itemId: row.item_id, name: row.item_name })),
    ...items.filter((i) => !held.has(i.id) && counted.has(i.id)).map((i) => ({ itemId: i.id, name: i.name })),
  ];
  const notHeld = items.filter((i) => !held.has(i.id) && !counted.has(i.id)).map((i) => ({ itemId: i.id, name: i.name }));
  const needle = query.trim().toLowerCase();
  const matches = (row: { itemId: string; name: string }) =>
    (needle === '' || row.name.toLowerCase().includes(needle)) && (category === '' || itemById.get(row.itemId)?.category === category);
  const shownListed = listed.filter(matches);
  const shownNotHeld = notHeld.filter(matches);
  const filtering = needle !== '' || category !== '';

  const differences: Difference[] = lines
    .map((line) => ({ name: nameOf(line.item_id), change: line.counted - line.expected }))
    .sort((a, b) => a.name.localeCompare(b.name));

  const renderRow = (row: { itemId: string; name: string }) => {
    const line = draft.lines[row.itemId];
    const expected = line?.expected ?? held.get(row.itemId) ?? 0;
    return (
      <CountRow
        key={row.itemId}
        name={row.name}
        category={itemById.get(row.itemId)?.category}
        expected={expected}
        counted={line?.counted ?? expected}
        movedTo={moved.get(row.itemId)}
        onCount={(value) => {
          setDraft((d) => withCount(d, row.itemId, held.get(row.itemId) ?? 0, value));
          setMoved((m) => {
            if (!m.has(row.itemId)) return m;
            const rest = new Map(m);
            rest.delete(row.itemId);
            return rest;
          });
        }}
      />
    );
  };

  const leave = () => {
    clearDraft(key);
    guard.goTo(backTo.path);
    window.scrollTo(0, 0);
  };

  const submit = () => {
    if (lines.length === 0) {
      setReviewing(false);
      toast.success('Nothing differs: no change saved');
      leave();
      return;
    }
    save.mutate(
      { place, placeName, body: { lines } },
      {
        onSuccess: (result) => {
          const summary = differenceSummary(result.changed.map((c) => ({ name: c.item_name, change: c.quantity - c.previous })));
          toast.success(result.changed.length === 0 ? 'Count saved: nothing differs' : `Count saved: ${summary}`, { duration: 4000 });
          leave();
        },
        onError: async (error) => {
          setReviewing(false);
          if (isChangeKept(error)) {
            // Kept on the phone: sent with the others when the network is back, checked then.
            toastKept();
            leave();
            return;
          }
          toast.error(actionErrorMessage(error, 'Failed to save the count'));
          if (!(error instanceof ApiError) || error.code !== 'CONFLICT') return;
          // The lines whose stock moved: their expected quantity becomes the stock now, their count stays.
          const refused = new Set(error.issues.map((issue) => lines[Number(issue.path[1])]?.item_id).filter((x) => x !== undefined));
          const now = await reload();
          if (!now) return;
          const fresh = new Map(now.filter((row) => refused.has(row.item_id)).map((row) => [row.item_id, row.quantity]));
          for (const itemId of refused) if (!fresh.has(itemId)) fresh.set(itemId, 0);
          setDraft((d) => withExpected(d, fresh));
          setMoved(fresh);
        },
      },
    );
  };

  return (
    <div className="mx-auto -mt-2 flex max-w-3xl flex-col gap-4">
      <div>
        <Link to={backTo.path} className="inline-flex min-h-11 items-center gap-2 text-base font-medium text-blue-700 hover:underline">
          <ArrowLeft className="size-5" aria-hidden="true" />
          {backTo.label}
        </Link>
      </div>
      <div>
        <h1 className="text-2xl font-bold break-words text-slate-900">{`Count ${placeName}`}</h1>
        <p className="mt-1 text-base text-slate-600">Every row starts at the expected quantity: change only what differs.</p>
      </div>

      {restored && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-blue-200 bg-blue-50 px-3 py-2 text-blue-900">
          <span>{restored}</span>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => setDiscarding(true)}>
              Discard
            </Button>
            <Button variant="ghost" onClick={() => setRestored(null)}>
              Keep
            </Button>
          </div>
        </div>
      )}

      <Card className="flex flex-col gap-3 p-3 sm:p-5">
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="relative flex-1">
            <label htmlFor={`${id}-search`} className="sr-only">
              Search items
            </label>
            <Search className="pointer-events-none absolute top-3 left-3 size-5 text-slate-500" aria-hidden="true" />
            <input
              id={`${id}-search`}
              type="search"
              placeholder="Search items"
              value={query}
              maxLength={200}
              onChange={(event) => setQuery(event.target.value)}
              className="min-h-11 w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-500 focus:outline-2 focus:outline-blue-600"
            />
          </div>
          <label htmlFor={`${id}-category`} className="sr-only">
            Category
          </label>
          <select
            id={`${id}-category`}
            value={category}
            onChange={(event) => setCategory(event.target.value)}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:outline-2 focus:outline-blue-600"
          >
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>

        {listed.length === 0 ? (
          <p className="py-4 text-center text-base text-slate-600">{`${placeName} holds nothing yet: add items from the list below.`}</p>
        ) : shownListed.length === 0 ? (
          <p className="py-4 text-center text-base text-slate-600">No item here matches the search.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label={`Items at ${placeName}`}>
            {shownListed.map(renderRow)}
          </ul>
        )}

        {notHeld.length > 0 && (
          <div className="border-t border-slate-200 pt-2">
            <Button
              variant="ghost"
              aria-expanded={showAll || listed.length === 0}
              onClick={() => setShowAll((v) => !v)}
              className="w-full justify-between"
            >
              {`Not stocked here (${filtering ? `${shownNotHeld.length} of ${notHeld.length}` : notHeld.length})`}
              {showAll || listed.length === 0 ? <ChevronUp className="size-5" aria-hidden="true" /> : <ChevronDown className="size-5" aria-hidden="true" />}
            </Button>
            {(showAll || listed.length === 0) && (
              <ul className="divide-y divide-slate-100" aria-label="Not stocked here">
                {shownNotHeld.map(renderRow)}
              </ul>
            )}
          </div>
        )}
      </Card>

      {/* Within reach of the thumb, just above the phone's tab bar; above the trial pill (z-20), which would cover Save. */}
      <div className="sticky bottom-[calc(var(--bottom-tabs-h)+0.75rem)] z-30 flex items-center gap-2 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <p className="min-w-0 flex-1 px-2 text-base text-slate-800" aria-live="polite" data-testid="count-status">
          {lines.length === 0 ? 'Nothing differs yet' : lines.length === 1 ? '1 item differs' : `${lines.length} items differ`}
        </p>
        <Button variant="secondary" disabled={lines.length === 0} onClick={() => setDiscarding(true)}>
          Discard
        </Button>
        <Button onClick={() => setReviewing(true)}>Save count</Button>
      </div>

      <Dialog
        open={reviewing}
        onClose={() => setReviewing(false)}
        title="Save count"
        description={lines.length === 0 ? 'Every item matches the expected quantity: nothing will be written.' : `${differenceSummary(differences)}.`}
      >
        {differences.length > 0 && (
          <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto" aria-label="Differences">
            {differences.map((d) => (
              <li key={d.name} className="flex items-start justify-between gap-3 py-2">
                <span className="min-w-0 break-words">{d.name}</span>
                <span className={`shrink-0 font-semibold tabular-nums ${d.change > 0 ? 'text-green-800' : 'text-red-800'}`}>
                  {d.change > 0 ? `+${d.change}` : `−${-d.change}`}
                </span>
              </li>
            ))}
          </ul>
        )}
        <DialogActions>
          <Button variant="secondary" onClick={() => setReviewing(false)}>
            Keep counting
          </Button>
          <Button onClick={submit} isBusy={save.isPending}>
            {lines.length === 0 ? 'Done' : 'Save count'}
          </Button>
        </DialogActions>
      </Dialog>

      <ConfirmDialog
        open={discarding}
        title="Discard count"
        message={`The ${lines.length === 1 ? 'difference' : `${lines.length} differences`} counted here will be forgotten; the stock stays as it is.`}
        confirmLabel="Discard"
        isBusy={false}
        onConfirm={() => {
          setDiscarding(false);
          setRestored(null);
          setMoved(new Map());
          setDraft(emptyDraft());
          clearDraft(key);
        }}
        onCancel={() => setDiscarding(false)}
      />

      <Dialog
        open={guard.attempt !== null}
        onClose={guard.stay}
        title="Leave the count?"
        description={`${differenceSummary(differences)}, not saved yet. The draft stays on this device until you save or discard it.`}
      >
        <DialogActions>
          <Button variant="secondary" onClick={guard.stay}>
            Keep counting
          </Button>
          <Button onClick={guard.leave}>Leave</Button>
        </DialogActions>
      </Dialog>
    </div>
  );
}
