/**
 * Asks before something destructive, e.g. deleting a unit. When the server refuses it (`refusal`,
 * e.g. a garage that still holds stock), the dialog says why and offers only OK.
 */
import { Button } from './Button';
import { Dialog, DialogActions } from './Dialog';
import { FormAlert } from './FormAlert';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** The label of the destructive button; 'Delete' unless told. */
  confirmLabel?: string;
  isBusy: boolean;
  /** The server's reason for refusing the action; the dialog then only closes. */
  refusal?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Renders the question with Cancel and the destructive button, or the refusal with OK. */
export function ConfirmDialog({ open, title, message, confirmLabel = 'Delete', isBusy, refusal, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onCancel} title={title} description={refusal ? undefined : message}>
      <FormAlert message={refusal} />
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          {refusal ? 'OK' : 'Cancel'}
        </Button>
        {!refusal && (
          <Button variant="danger" onClick={onConfirm} isBusy={isBusy}>
            {confirmLabel}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
