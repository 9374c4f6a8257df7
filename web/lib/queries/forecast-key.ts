/**
 * The first part of the key of every query about the forecast (docs/product.md "Screens:
 * Forecast", "Screens: Pick list"): the forecast of every property, the dashboard's summary, one
 * property's forecast and a garage's pick list. A stock change changes what each property would
 * lack, so every stock change invalidates it (stock-cache.ts). A module of its own so that the
 * stock cache does not bring the forecast's contracts into every screen's first download
 * (decision 016).
 */
export const forecastKey = ['forecast'] as const;
