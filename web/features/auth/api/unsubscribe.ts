/** Turning the morning email off from its link, signed in or not (docs/product.md "Daily email"). */
import { useMutation } from '@tanstack/react-query';
import { unsubscribeResult } from '../../../../common/contracts/daily-email';
import { apiFetch } from '../../../lib/api-fetch';

/** Posts the link's token. @throws ApiError VALIDATION (a link this server did not sign) */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => apiFetch('/api/daily-email/unsubscribe', { method: 'POST', body: { token }, schema: unsubscribeResult }),
  });
}
