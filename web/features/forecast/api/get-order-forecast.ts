/** GET /api/garages/:id/order-forecast: what to order for a garage so that its properties' upcoming stays are covered. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { orderForecastAnswer, type OrderForecastAnswer } from '../../../../common/contracts/forecast';
import { apiFetch } from '../../../lib/api-fetch';
import { forecastKey } from '../../../lib/queries/forecast-key';

/** Fetches the order forecast. @throws ApiError, NOT_FOUND for an unknown garage or one of another company */
export function getOrderForecast(garageId: string, signal?: AbortSignal): Promise<OrderForecastAnswer> {
  return apiFetch(`/api/garages/${encodeURIComponent(garageId)}/order-forecast`, { schema: orderForecastAnswer, signal });
}

/**
 * The order forecast, under the forecast's key. No toast of its own on failure: it is a side
 * panel of the pick list, which reports its own failures.
 */
export function orderForecastQuery(garageId: string) {
  return queryOptions({
    queryKey: [...forecastKey, 'order', garageId],
    queryFn: ({ signal }) => getOrderForecast(garageId, signal),
  });
}

/** The order forecast (the Pick list screen's 'To order' panel). */
export function useOrderForecast(garageId: string) {
  return useQuery(orderForecastQuery(garageId));
}
