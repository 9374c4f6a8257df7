/**
 * /pending-changes: the stock changes kept on this phone (docs/product.md "Offline use") — those
 * waiting to be sent, in order, and those the server refused ("Not sent"), each with its reason,
 * a link to where it was made, Retry and Discard. Nothing leaves this list without being sent or
 * discarded by the person.
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CloudOff } from 'lucide-react';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { PageHeader } from '../../components/ui/PageHeader';
import { formatDateTime } from '../../lib/format';
import { discardChange, retryChange } from '../../lib/outbox/outbox';
import type { PendingChange } from '../../lib/outbox/pending-change';
import { waitingText } from '../../lib/outbox/pending-change';
import { useOutbox } from '../../lib/outbox/use-outbox';

/** One change of the lists: what it does, when and where it was made. */
function ChangeLine({ change, children }: { change: PendingChange; children?: ReactNode }) {
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4">
      <p className="text-base font-medium text-slate-900">{change.label}</p>
      <p className="text-sm text-slate-600">
        {`Made ${formatDateTime(change.madeAt)} · `}
        <Link to={change.href} className="font-medium text-blue-700 underline-offset-2 hover:underline">
          {change.kind === 'count' ? 'Open the count' : 'Open the unit'}
        </Link>
      </p>
      {children}
    </li>
  );
}

/** The screen. */
export function PendingChangesRoute() {
  const { waiting, notSent } = useOutbox();
  const [discarding, setDiscarding] = useState<PendingChange>();
  const [retrying, setRetrying] = useState<string>();

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageHeader title="Changes on this phone" subtitle="Stock changes made without a network are kept here and sent in the order they were made." />
      <section aria-labelledby="waiting-heading" className="flex flex-col gap-3">
        <h2 id="waiting-heading" className="text-xl font-semibold text-slate-900">
          Waiting to be sent
        </h2>
        {waiting.length === 0 ? (
          <p className="text-base text-slate-600">Nothing is waiting: every change made on this phone has been sent.</p>
        ) : (
          <>
            <p role="status" className="flex items-center gap-2 text-base text-slate-700">
              <CloudOff className="size-5" aria-hidden="true" />
              {`${waitingText(waiting.length)}. They go out by themselves when the network is back.`}
            </p>
            <ol className="flex flex-col gap-2">
              {waiting.map((change) => (
                <ChangeLine key={change.id} change={change} />
              ))}
            </ol>
          </>
        )}
      </section>
      <section aria-labelledby="not-sent-heading" className="flex flex-col gap-3">
        <h2 id="not-sent-heading" className="text-xl font-semibold text-slate-900">
          Not sent
        </h2>
        {notSent.length === 0 ? (
          <p className="text-base text-slate-600">No change was refused.</p>
        ) : (
          <ol className="flex flex-col gap-2">
            {notSent.map((change) => (
              <ChangeLine key={change.id} change={change}>
                <p className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{`Refused: ${change.refusal!.message}`}</p>
                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="secondary"
                    isBusy={retrying === change.id}
                    onClick={() => {
                      setRetrying(change.id);
                      void retryChange(change.id).finally(() => setRetrying(undefined));
                    }}
                  >
                    Retry<span className="sr-only">{` ${change.label}`}</span>
                  </Button>
                  <Button variant="danger" onClick={() => setDiscarding(change)}>
                    Discard<span className="sr-only">{` ${change.label}`}</span>
                  </Button>
                </div>
              </ChangeLine>
            ))}
          </ol>
        )}
      </section>
      <ConfirmDialog
        open={discarding !== undefined}
        title="Discard Change"
        message={discarding ? `"${discarding.label}" will not be sent. The stock stays as the server has it.` : ''}
        confirmLabel="Discard"
        isBusy={false}
        onCancel={() => setDiscarding(undefined)}
        onConfirm={() => {
          if (discarding) void discardChange(discarding.id);
          setDiscarding(undefined);
        }}
      />
    </div>
  );
}
