/**
 * The assistant's report types (docs/product.md "Constants and limits") and the module that
 * computes each.
 */
import type { ReportType } from '../../../../common/contracts/reports';
import { criticalReport } from './critical';
import { expensesReport } from './expenses';
import { reorderReport } from './reorder';
import type { ReportBuilder } from './shared';
import { summaryReport } from './summary';
import { usageReport } from './usage';
import { wasteReport } from './waste';

export const reportBuilders: Record<ReportType, ReportBuilder> = {
  summary: summaryReport,
  critical: criticalReport,
  usage: usageReport,
  reorder: reorderReport,
  expenses: expensesReport,
  waste: wasteReport,
};
