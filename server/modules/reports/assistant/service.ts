/**
 * The report assistant (docs/product.md "Screens: Reports" AI assistant, "Constants and limits"
 * report types, "Reports"): computes the chosen report's facts and CSV from the database, then has
 * the language model, when one is configured, write the narrative over those facts. It is the plan
 * feature `ai_reports` and sits behind the expired-trial gate, both declared by its route
 * (assistant-routes.ts).
 */
import type { AssistantBody, AssistantReply } from '../../../../common/contracts/reports';
import { reportTypeLabels } from '../../../../common/contracts/reports';
import type { Db } from '../../../db/client';
import { enterTenantScope } from '../../../db/tenant-tx';
import type { AiProvider } from '../../../integrations/ai';
import { writeReportText, type NarrativeOptions } from './narrative';
import { reportBuilders } from './registry';
import { toCsv } from '../../../lib/csv';
import { reportRange, type ReportFacts } from './shared';

/**
 * Computes the facts and CSV rows of one assistant request of `tenantId` as of `now` (UTC): the
 * range is the `days` days before `now`, at most `limit` records.
 */
export async function computeReport(db: Db, tenantId: string, body: AssistantBody, now: Date): Promise<ReportFacts> {
  const range = reportRange(now, body.days, body.limit);
  // withTenant's scope on a read-only snapshot, so every query of a report sees the same ledger
  // and the facts agree with the rows even while stock moves.
  return db.transaction(
    async (tx) => {
      await enterTenantScope(tx, tenantId);
      return reportBuilders[body.type](tx, tenantId, range);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * The assistant's reply to `body` from its computed `report`: the narrative the model writes over
 * the facts, or the computed summary when no model is configured, it fails (the failure goes to
 * `opts.onError`) or the company has no narrative of the minute left; and the CSV. Call it after
 * the report's transaction: a slow model must not hold a connection (PGlite has only one).
 */
export async function replyWithReport(
  ai: AiProvider | null,
  body: AssistantBody,
  report: ReportFacts,
  opts: NarrativeOptions,
): Promise<AssistantReply> {
  const { text, ai_narrative } = await writeReportText(ai, reportTypeLabels[body.type], report, opts);
  return { type: body.type, text, csv: toCsv(report.columns, report.rows), records: report.rows.length, ai_narrative };
}
