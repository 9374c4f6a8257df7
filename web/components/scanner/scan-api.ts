/**
 * The scanner's calls (docs/product.md "Screens: AI photo scanner", decision 035): whether it works on this
 * server, the photo of a unit sent for counting, and the confirmed counts applied once.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { applyScanResult, scan, scannerStatus, type ApplyScanBody, type ApplyScanResult, type Scan } from '../../../common/contracts/scans';
import { apiFetch } from '../../lib/api-fetch';
import { invalidateStock } from '../../lib/stock-cache';

/** GET /api/scanner, asked when the dialog opens; it does not change while the server runs. */
export function useScannerStatus() {
  return useQuery({
    queryKey: ['scanner'],
    queryFn: ({ signal }) => apiFetch('/api/scanner', { schema: scannerStatus, signal }),
    staleTime: Infinity,
  });
}

/** Sends the (downscaled) photo of a unit. @throws ApiError: NOTHING_DETECTED, PROVIDER_ERROR, SCANNER_NOT_CONFIGURED, … */
export function scanUnitPhoto(unitId: string, photo: Blob): Promise<Scan> {
  const form = new FormData();
  form.append('photo', photo, 'photo.jpg');
  return apiFetch(`/api/units/${encodeURIComponent(unitId)}/scans`, { method: 'POST', body: form, schema: scan });
}

/** Applies the confirmed counts, then refreshes every stock view. @throws ApiError: CONFLICT (garage short, applied already), … */
export function useApplyScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scanId, body }: { scanId: string; body: ApplyScanBody }): Promise<ApplyScanResult> =>
      apiFetch(`/api/scans/${encodeURIComponent(scanId)}/apply`, { method: 'POST', idempotencyKey: true, body, schema: applyScanResult }),
    // Refused or not, the stock may have moved meanwhile (a garage short, applied by a retry).
    onSettled: () => invalidateStock(queryClient),
  });
}
