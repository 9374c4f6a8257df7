/** POST /api/reports/assistant: one report of the assistant — its text (markdown) and its CSV. */
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { assistantReply, type AssistantBody, type AssistantReply } from '../../../../common/contracts/reports';
import { apiFetch } from '../../../lib/api-fetch';
import { assistantErrorMessage } from '../assistant-chat';

/**
 * Asks for the report. @throws ApiError, FORBIDDEN (403) when the plan has no AI reports,
 * SUBSCRIPTION_REQUIRED (402) after the trial.
 */
export function generateReport(body: AssistantBody): Promise<AssistantReply> {
  return apiFetch('/api/reports/assistant', { method: 'POST', body, schema: assistantReply });
}

/** Generate Report mutation; a failure is told by a toast (docs/product.md "Messages"). */
export function useGenerateReport() {
  return useMutation({
    mutationFn: generateReport,
    onError: (error) => toast.error(assistantErrorMessage(error)),
  });
}
