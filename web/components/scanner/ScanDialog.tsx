/**
 * Opens the AI photo scanner (ScanPanel.tsx) for a unit. The panel, its camera and its calls are
 * loaded with the first opening, so the screens that offer the scanner do not carry it.
 */
import { lazy, Suspense } from 'react';
import { Dialog } from '../ui/Dialog';
import { Spinner } from '../ui/Spinner';
import type { ScanTarget } from './ScanPanel';

const ScanPanel = lazy(() => import('./ScanPanel'));

interface ScanDialogProps {
  /** The unit being scanned; null: closed. */
  unit: ScanTarget | null;
  onClose: () => void;
}

/** Renders the scanner while a unit is given. */
export function ScanDialog({ unit, onClose }: ScanDialogProps) {
  if (!unit) return null;
  return (
    <Suspense
      fallback={
        <Dialog open onClose={onClose} title="AI-Powered Inventory Scanner">
          <div className="flex justify-center py-10">
            <Spinner className="size-8" label="Loading the scanner" />
          </div>
        </Dialog>
      }
    >
      {/* Keyed by unit: another unit's scan starts afresh. */}
      <ScanPanel key={unit.id} unit={unit} onClose={onClose} />
    </Suspense>
  );
}
