/**
 * The report assistant's conversation (docs/product.md "Screens: Reports", the AI assistant; "Entities", AI chat message; "Constants and limits"):
 * messages from the bot or the user, the request as the user's message, the selectors' options,
 * the CSV file's name and what a failure says.
 */
import { reportDays, reportLimits, reportTypeLabels, type AssistantBody } from '../../../common/contracts/reports';
import { ApiError } from '../../lib/api-error';
import { localIsoDate } from './cost-period';

export interface ChatMessage {
  id: number;
  sender: 'bot' | 'user';
  /** Markdown for the bot, plain text for the user. */
  text: string;
  /** The report's CSV, when the reply has records to download. */
  csv?: string;
}

export const GREETING: ChatMessage = { id: 0, sender: 'bot', text: 'Hi! I can help you analyze your inventory reports.' };

/** What the selectors start on: a summary over the last 7 days with up to 50 records (docs/product.md "Constants and limits"). */
export const defaultRequest: AssistantBody = { type: 'summary', days: 7, limit: 50 };

/** The Time Range options, e.g. 'Last 7 days'. */
export const dayOptions = reportDays.map((days) => ({ value: days, label: `Last ${days} days` }));

/** The Records options, e.g. '50 records'. */
export const limitOptions = reportLimits.map((limit) => ({ value: limit, label: `${limit} records` }));

/** The user's side of the conversation, e.g. 'Supply Cost Analysis for the last 30 days (up to 50 records)'. */
export function requestText(body: AssistantBody): string {
  return `${reportTypeLabels[body.type]} for the last ${body.days} days (up to ${body.limit} records)`;
}

/** The downloaded CSV's name with today's date in the browser's zone: inventory_report_{YYYY-MM-DD}.csv. */
export function csvFileName(today: Date): string {
  return `inventory_report_${localIsoDate(today)}.csv`;
}

/**
 * The toast for a failed request: the server's reason when the plan does not include the
 * assistant (403) or the trial has expired (402), else 'Failed to fetch AI response.' (docs/product.md "Messages").
 */
export function assistantErrorMessage(error: unknown): string {
  const planRefusal = error instanceof ApiError && (error.code === 'FORBIDDEN' || error.code === 'SUBSCRIPTION_REQUIRED');
  return planRefusal ? error.message : 'Failed to fetch AI response.';
}
