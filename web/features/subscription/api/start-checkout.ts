/**
 * POST /api/subscription/checkout: a checkout session at the card payment provider for a plan
 * and billing interval (owners only); the browser is sent to the provider's page.
 */
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { redirectUrl, type CheckoutBody } from '../../../../common/contracts/billing';
import { apiFetch } from '../../../lib/api-fetch';
import { billingErrorMessage } from '../billing-error';

/**
 * Starts checkout. @returns the provider's checkout page.
 * @throws ApiError: BILLING_NOT_CONFIGURED (503), CONFLICT 'No valid price ID found for {tier}',
 * FORBIDDEN for non-owners, PROVIDER_ERROR (502).
 */
export async function startCheckout(body: CheckoutBody): Promise<string> {
  return (await apiFetch('/api/subscription/checkout', { method: 'POST', body, schema: redirectUrl })).url;
}

/**
 * Subscribe mutation. On success the page is left for the provider's, which returns to
 * /subscription?success=true or ?canceled=true.
 */
export function useStartCheckout() {
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: (url) => window.location.assign(url),
    onError: (error) => toast.error(billingErrorMessage(error, 'Failed to start checkout process')),
  });
}
