/** The toast of a stock change kept on the phone to be sent later (web/lib/stock-write.ts). */
import toast from 'react-hot-toast';
import { ChangeKept } from '../lib/stock-write';

/** One toast, however many changes are kept in a row (quick taps offline). */
export function toastKept(): void {
  toast.success(new ChangeKept().message, { id: 'change-kept', duration: 4000 });
}
