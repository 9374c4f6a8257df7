/**
 * POST /api/subscription/portal: a session of the payment provider's customer portal, where an
 * owner manages the subscription ("Manage Subscription"); the browser is sent there.
 */
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { redirectUrl } from '../../../../common/contracts/billing';
import { apiFetch } from '../../../lib/api-fetch';
import { billingErrorMessage } from '../billing-error';

/**
 * Opens a portal session. @returns the portal page.
 * @throws ApiError: BILLING_NOT_CONFIGURED (503), CONFLICT when there is no subscription to
 * manage yet, FORBIDDEN for non-owners, PROVIDER_ERROR (502).
 */
export async function openPortal(): Promise<string> {
  return (await apiFetch('/api/subscription/portal', { method: 'POST', schema: redirectUrl })).url;
}

/** Manage Subscription mutation; on success the page is left for the portal. */
export function useOpenPortal() {
  return useMutation({
    mutationFn: openPortal,
    onSuccess: (url) => window.location.assign(url),
    onError: (error) => toast.error(billingErrorMessage(error, 'Failed to open subscription portal')),
  });
}
