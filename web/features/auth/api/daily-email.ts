/**
 * The morning email's requests (docs/product.md "Daily email"): the signed-in member's setting
 * with the company's time zone, turning the email on or off, and the admins' company time zone.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { companyTimeZone, dailyEmailSetting, type DailyEmailSetting } from '../../../../common/contracts/daily-email';
import { apiFetch } from '../../../lib/api-fetch';
import { actionErrorMessage } from '../../../lib/api-error';

export const dailyEmailQuery = queryOptions({
  queryKey: ['daily-email'],
  queryFn: ({ signal }): Promise<DailyEmailSetting> => apiFetch('/api/me/daily-email', { schema: dailyEmailSetting, signal }),
});

/** The member's setting, the company's time zone and the hour the email goes out. */
export function useDailyEmail() {
  return useQuery(dailyEmailQuery);
}

/** Turns the email on or off, with its toast. @throws ApiError */
export function useSetDailyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => apiFetch('/api/me/daily-email', { method: 'PUT', body: { enabled }, schema: dailyEmailSetting }),
    onSuccess: (setting) => {
      queryClient.setQueryData(dailyEmailQuery.queryKey, setting);
      toast.success(setting.enabled ? 'Morning email turned on.' : 'Morning email turned off.');
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to save the morning email setting. Please try again.')),
  });
}

/** Sets the company's time zone (admins and owners), with its toast. @throws ApiError VALIDATION, FORBIDDEN */
export function useSetCompanyTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (timeZone: string) => apiFetch('/api/company/time-zone', { method: 'PUT', body: { time_zone: timeZone }, schema: companyTimeZone }),
    onSuccess: ({ time_zone }) => {
      queryClient.setQueryData(dailyEmailQuery.queryKey, (old) => (old ? { ...old, time_zone } : old));
      toast.success(`Company time zone set to ${time_zone}.`);
    },
    onError: (error) => toast.error(actionErrorMessage(error, 'Failed to save the time zone. Please try again.')),
  });
}
