/**
 * The assistant's text (docs/product.md "Reports"): a language model, when one is configured,
 * writes a short narrative over the facts computed from the database and is told to add no numbers
 * of its own; it sees only the facts and the top CSV rows, never the ledger's movements. Without a model, or
 * when the call fails or times out, or the company has used its narratives of the minute, the text
 * is a plain summary of the same facts with a note saying why.
 */
import type { AiProvider } from '../../../integrations/ai';
import { toCsv } from '../../../lib/csv';
import type { ReportFacts } from './shared';

/** CSV rows shown to the model after the facts. */
export const NARRATIVE_ROWS = 10;

export const NO_MODEL_NOTE = '_No AI model is configured on this server: showing the computed summary._';
export const UNAVAILABLE_NOTE = '_AI narrative unavailable: showing the computed summary._';

/** The note when the company has used its AI narratives of the minute (OPENAI_REPORTS_PER_MINUTE). */
export function limitNote(perMinute: number): string {
  return `_AI narrative limit reached (${perMinute} a minute for your company): showing the computed summary. Try again in a minute for a written one._`;
}

/** How the text of one report may be written. */
export interface NarrativeOptions {
  /** Gets a failed or timed-out model call, for the log. */
  onError: (err: unknown) => void;
  /** Takes one of the company's narratives of the minute: false when none is left (no model call then). */
  takeNarrative: () => Promise<boolean>;
  /** The company's narratives per minute, for the note when none is left. */
  perMinute: number;
}

export const SYSTEM_PROMPT = [
  'You are an inventory analyst for short-term rental operators.',
  'Write a short, human-readable summary in Markdown of the report facts you are given, for the named report type:',
  'a heading, a few short paragraphs or bullet points, and the most useful next steps.',
  'Use only the numbers given in the facts and rows; do not calculate, estimate or add numbers of your own.',
  'Names in the facts are escaped Markdown: write them exactly as the facts do.',
  'Do not output HTML, links, images, tables or CSV.',
].join(' ');

/** The user message: the report type's label, the facts, and the top rows as CSV. */
export function narrativePrompt(label: string, report: ReportFacts): string {
  const lines = [`Report type: ${label}`, '', 'Facts:', ...report.facts.map((f) => `- ${f}`)];
  if (report.rows.length > 0) {
    lines.push('', `Top rows of the report (CSV, at most ${NARRATIVE_ROWS}):`, toCsv(report.columns, report.rows.slice(0, NARRATIVE_ROWS)));
  }
  return lines.join('\n');
}

/** The summary without a model: the label as title, the facts as bullets, then `note`. */
export function plainSummary(label: string, facts: string[], note: string): string {
  return [`## ${label}`, '', ...facts.map((f) => `- ${f}`), '', note].join('\n');
}

/**
 * Writes the text of a report. Never throws for the model's sake: a failed or timed-out call is
 * passed to `opts.onError` and answered with the plain summary, and so is a request past the
 * company's narratives of the minute (the model is not called).
 * @returns markdown and whether the model wrote it.
 */
export async function writeReportText(
  ai: AiProvider | null,
  label: string,
  report: ReportFacts,
  opts: NarrativeOptions,
): Promise<{ text: string; ai_narrative: boolean }> {
  if (!ai) return { text: plainSummary(label, report.facts, NO_MODEL_NOTE), ai_narrative: false };
  if (!(await opts.takeNarrative())) return { text: plainSummary(label, report.facts, limitNote(opts.perMinute)), ai_narrative: false };
  try {
    const text = await ai.writeNarrative({ system: SYSTEM_PROMPT, user: narrativePrompt(label, report) });
    return { text, ai_narrative: true };
  } catch (err) {
    opts.onError(err);
    return { text: plainSummary(label, report.facts, UNAVAILABLE_NOTE), ai_narrative: false };
  }
}
