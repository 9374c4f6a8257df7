/** Asks before something that cannot be undone, e.g. deleting a unit. */
import { Button } from './Button';
import { Dialog, DialogActions } from './Dialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  /** The label of the destructive button; 'Delete' unless told. */
  confirmLabel?: string;
  isBusy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Renders the question with Cancel and the destructive button. */
export function ConfirmDialog({ open, title, message, confirmLabel = 'Delete', isBusy, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onCancel} title={title} description={message}>
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} isBusy={isBusy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
