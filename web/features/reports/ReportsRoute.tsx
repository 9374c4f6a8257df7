/**
 * /reports (docs/product.md "Screens: Reports"): the cost analysis and the unit and garage status charts beside
 * the AI assistant on wide screens; on smaller ones one at a time, switched by 'Show AI Chat' /
 * 'Show Reports'.
 */
import { useState } from 'react';
import { ChartColumn, MessageSquare } from 'lucide-react';
import { OnlineOnly } from '../../components/OnlineOnly';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { Button } from '../../components/ui/Button';
import { PageHeader } from '../../components/ui/PageHeader';
import { CostAnalysisCard } from './components/CostAnalysisCard';
import { ReportAssistant } from './components/ReportAssistant';
import { StatusCharts } from './components/StatusCharts';

function ReportsScreen() {
  const [showChat, setShowChat] = useState(false);
  return (
    <>
      <PageHeader
        title="Reports"
        subtitle="Inventory status, cost analysis, and usage trends"
        actions={
          <Button variant="secondary" onClick={() => setShowChat(!showChat)} className="w-full sm:w-auto xl:hidden">
            {showChat ? <ChartColumn className="size-5" aria-hidden="true" /> : <MessageSquare className="size-5" aria-hidden="true" />}
            {showChat ? 'Show Reports' : 'Show AI Chat'}
          </Button>
        }
      />
      {/* Both sides stay mounted while hidden, so the period chosen and the conversation survive the switch. */}
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_24rem] xl:items-start">
        <div className={`min-w-0 flex-col gap-6 ${showChat ? 'hidden xl:flex' : 'flex'}`}>
          <CostAnalysisCard />
          <StatusCharts />
        </div>
        <div className={`min-w-0 xl:sticky xl:top-10 xl:block ${showChat ? '' : 'hidden'}`}>
          <ReportAssistant />
        </div>
      </div>
    </>
  );
}

/** The Reports screen behind the expired-trial gate; offline, the sentence that reports need a connection. */
export function ReportsRoute() {
  return (
    <OnlineOnly screen="reports">
      <SubscriptionGate message="Your trial has expired. Please subscribe to access reports.">
        <ReportsScreen />
      </SubscriptionGate>
    </OnlineOnly>
  );
}
