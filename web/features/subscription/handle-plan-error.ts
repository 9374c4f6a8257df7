/**
 * What the app does when the server refuses an action because of the plan (docs/product.md "Messages",
 * Subscription gate): a 402 LIMIT_REACHED (creating beyond the plan's limit) or a 402
 * SUBSCRIPTION_REQUIRED (the trial has expired). Either way the user is told why and taken to
 * the plans, where the problem can be solved.
 */
import toast from 'react-hot-toast';
import { ApiError } from '../../lib/api-error';

/** The plans screen. */
export const SUBSCRIPTION_PATH = '/subscription';

const TRIAL_EXPIRED_MESSAGE = 'Your trial has expired. Please subscribe to continue.';

/** The router as seen from outside React (the query client): where the user is, and how to move. */
export interface AppNavigation {
  /** The current path, e.g. '/add-unit'. */
  pathname: () => string;
  navigate: (to: string) => void;
}

/** True for the two plan errors, LIMIT_REACHED and SUBSCRIPTION_REQUIRED. */
export function isPlanError(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === 'LIMIT_REACHED' || error.code === 'SUBSCRIPTION_REQUIRED');
}

/**
 * Handles a plan error: LIMIT_REACHED shows the server's message (which names the resource);
 * SUBSCRIPTION_REQUIRED shows 'Your trial has expired. Please subscribe to continue.', but not
 * on the plans screen itself, where the Current Plan box already says so. Then it goes to
 * /subscription unless the user is there already.
 * @param options.toast false when the caller has already shown its own toast for this error.
 * @returns true when `error` was a plan error (now handled), false for any other error.
 */
export function handlePlanError(error: unknown, navigation: AppNavigation, options: { toast?: boolean } = {}): boolean {
  if (!isPlanError(error)) return false;
  const showToast = options.toast ?? true;
  const onPlans = navigation.pathname() === SUBSCRIPTION_PATH;
  if (showToast) {
    const message = error.code === 'LIMIT_REACHED' ? error.message : onPlans ? null : TRIAL_EXPIRED_MESSAGE;
    // The id keeps one toast when several requests are refused together.
    if (message) toast.error(message, { id: message });
  }
  if (!onPlans) navigation.navigate(SUBSCRIPTION_PATH);
  return true;
}
