/**
 * Asks before a property's lines are marked as delivered (docs/product.md "Screens: Pick list"):
 * what moves from the garage to the property. A refusal of the server (the garage lacks stock:
 * nothing moved) is shown in the dialog with OK.
 */
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { FormAlert } from '../../../components/ui/FormAlert';

interface DeliverDialogProps {
  /** The property being delivered, or null when the dialog is closed. */
  delivery: { unitName: string; lines: { item_id: string; item_name: string; quantity: number }[] } | null;
  garageName: string;
  isBusy: boolean;
  refusal?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Renders the question with the lines, Cancel and 'Mark as delivered'. */
export function DeliverDialog({ delivery, garageName, isBusy, refusal, onConfirm, onCancel }: DeliverDialogProps) {
  return (
    <Dialog
      open={delivery !== null}
      onClose={onCancel}
      title={`Deliver to ${delivery?.unitName ?? ''}`}
      description={refusal ? undefined : `These move from ${garageName} to ${delivery?.unitName ?? ''}:`}
    >
      <FormAlert message={refusal} />
      {!refusal && (
        <ul className="flex flex-col gap-1 text-base text-slate-800">
          {delivery?.lines.map((line) => (
            <li key={line.item_id}>{`${line.quantity} ${line.item_name}`}</li>
          ))}
        </ul>
      )}
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          {refusal ? 'OK' : 'Cancel'}
        </Button>
        {!refusal && (
          <Button onClick={onConfirm} isBusy={isBusy}>
            Mark as delivered
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
