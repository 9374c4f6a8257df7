/**
 * The cache keys of the Webhooks screen's reads. The list's key is the prefix of the delivery
 * logs' keys: a change refreshes the list with `exact`, so that a deleted endpoint's open log is
 * not read again (and refused) before it leaves the screen.
 */

/** GET /api/webhooks */
export const endpointsQueryKey = ['webhooks'] as const;

/** GET /api/webhooks/:id/deliveries of the endpoint `endpointId`. */
export function deliveriesQueryKey(endpointId: string) {
  return [...endpointsQueryKey, endpointId, 'deliveries'] as const;
}
