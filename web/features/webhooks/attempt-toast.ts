/** The toast of an attempt made at once (Send test event, Resend): its outcome, worded by attemptMessage. */
import toast from 'react-hot-toast';
import type { WebhookDelivery } from '../../../common/contracts/webhooks';
import { attemptMessage } from './webhook-text';

/** Shows the outcome of the `kind` attempt that left `delivery` as it is: success, error or a plain toast. */
export function toastAttempt(kind: Parameters<typeof attemptMessage>[0], delivery: WebhookDelivery): void {
  const { tone, text } = attemptMessage(kind, delivery);
  if (tone === 'success') toast.success(text);
  else if (tone === 'error') toast.error(text);
  else toast(text);
}
