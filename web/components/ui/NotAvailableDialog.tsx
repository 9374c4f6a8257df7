/** A dialog that says plainly that a feature behind a button is not available yet. */
import { Construction } from 'lucide-react';
import { Button } from './Button';
import { Dialog, DialogActions } from './Dialog';

interface NotAvailableDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  message: string;
}

/** Renders the notice with an OK button (the title bar already has the Close icon). */
export function NotAvailableDialog({ open, onClose, title, message }: NotAvailableDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <div role="note" className="flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-amber-300 bg-amber-50 px-5 py-8 text-center">
        <Construction className="size-10 text-amber-600" aria-hidden="true" />
        <p className="text-base font-medium text-amber-900">{message}</p>
      </div>
      <DialogActions>
        <Button onClick={onClose}>OK</Button>
      </DialogActions>
    </Dialog>
  );
}
