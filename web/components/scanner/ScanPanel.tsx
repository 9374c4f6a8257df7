/**
 * The AI photo scanner dialog (docs/product.md "Screens: AI photo scanner", decision 035): start (Upload
 * Image, Take Photo, Cancel), the camera, analysing, and 'Confirm Items', where each detected item
 * has its quantity to correct (a whole number from 1), its confidence, a remove icon and, when the
 * unit has a garage, what the garage holds (red when the quantity is more). Counts above 10 are
 * flagged for a second look. 'Confirm & Update' applies the counts once, on the server. Leaving
 * the confirmation (Cancel, Close, Escape) asks first, so the counts are not lost by a slip.
 * Loaded with its first opening (ScanDialog.tsx).
 */
import { useRef, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { Camera, Eye, ImageUp, Trash2, TriangleAlert } from 'lucide-react';
import { scanMessages, type Scan } from '../../../common/contracts/scans';
import { ApiError, actionErrorMessage, hasErrorCode } from '../../lib/api-error';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { IconButton } from '../ui/IconButton';
import { Spinner } from '../ui/Spinner';
import { CameraView } from './CameraView';
import { confidencePercent, garageFit, initialLines, quantityProblem, restockBody, type ConfirmLine } from './confirm-lines';
import { downscaleFile } from './photo-downscale';
import { scanUnitPhoto, useApplyScan, useScannerStatus } from './scan-api';

/** The unit the photo is of. */
export interface ScanTarget {
  id: string;
  name: string;
}

type Step = { kind: 'start'; error?: string } | { kind: 'camera' } | { kind: 'analysing' } | { kind: 'confirm'; scan: Scan; lines: ConfirmLine[] };

/** The server's reason when it gave one (no items, the model failed or is not configured), else the spec's text. */
function scanErrorMessage(error: unknown): string {
  if (error instanceof ApiError && !['NETWORK_ERROR', 'UNEXPECTED_RESPONSE', 'INTERNAL', 'UNAUTHENTICATED'].includes(error.code)) return error.message;
  return scanMessages.analyzeFailed;
}

interface ScanPanelProps {
  unit: ScanTarget;
  onClose: () => void;
}

/** Renders the open dialog. */
export default function ScanPanel({ unit, onClose }: ScanPanelProps) {
  const status = useScannerStatus();
  const apply = useApplyScan();
  const [step, setStep] = useState<Step>({ kind: 'start' });
  const [discarding, setDiscarding] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  // Each photo sent gets a number; an answer for an older one (sent before Cancel) is dropped.
  const attempt = useRef(0);

  const fail = (message: string) => {
    toast.error(message);
    setStep({ kind: 'start', error: message });
  };
  const send = async (photo: Blob) => {
    const mine = ++attempt.current;
    setStep({ kind: 'analysing' });
    try {
      const scan = await scanUnitPhoto(unit.id, photo);
      if (mine === attempt.current) setStep({ kind: 'confirm', scan, lines: initialLines(scan.items) });
    } catch (error) {
      if (mine === attempt.current) fail(scanErrorMessage(error));
    }
  };
  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again is a new choice.
    event.target.value = '';
    if (!file) return;
    let photo: Blob;
    try {
      photo = await downscaleFile(file);
    } catch {
      fail('Failed to process image');
      return;
    }
    await send(photo);
  };
  const backToStart = () => {
    attempt.current++;
    setStep({ kind: 'start' });
  };

  const title = step.kind === 'confirm' ? 'Confirm Items' : 'AI-Powered Inventory Scanner';
  const requestClose = () => (step.kind === 'confirm' && step.lines.length > 0 && !discarding ? setDiscarding(true) : onClose());
  return (
    <Dialog open onClose={requestClose} title={title}>
      {step.kind === 'start' && (
        <div className="flex flex-col gap-4">
          <p className="text-base text-slate-600">Take a photo or upload an image of your inventory items for automatic detection.</p>
          {status.data?.configured === false ? (
            <p role="note" className="rounded-xl border-2 border-dashed border-amber-300 bg-amber-50 px-4 py-4 text-base font-medium text-amber-900">
              {scanMessages.notConfigured}
            </p>
          ) : (
            <div className="grid gap-3 sm:grid-cols-2">
              <Button variant="secondary" className="min-h-16" onClick={() => fileInput.current?.click()}>
                <ImageUp className="size-6" aria-hidden="true" />
                Upload Image
              </Button>
              <Button variant="secondary" className="min-h-16" onClick={() => setStep({ kind: 'camera' })}>
                <Camera className="size-6" aria-hidden="true" />
                Take Photo
              </Button>
              <input ref={fileInput} type="file" accept="image/*" className="hidden" aria-label="Photo to scan" onChange={(e) => void chooseFile(e)} />
            </div>
          )}
          {step.error && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-base text-red-800">
              {step.error}
            </p>
          )}
          <DialogActions>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
          </DialogActions>
        </div>
      )}
      {step.kind === 'camera' && (
        <CameraView onCapture={(photo) => void send(photo)} onFail={() => fail('Failed to access camera')} onCancel={backToStart} />
      )}
      {step.kind === 'analysing' && (
        <div className="flex flex-col items-center gap-3 py-10 text-slate-700">
          <Spinner className="size-10" label="Analysing the photo" />
          <p className="text-base">Analysing the photo of {unit.name}…</p>
          <DialogActions>
            <Button variant="secondary" onClick={backToStart}>
              Cancel
            </Button>
          </DialogActions>
        </div>
      )}
      {step.kind === 'confirm' && (
        <ConfirmItems
          scan={step.scan}
          lines={step.lines}
          onChange={(lines) => setStep({ ...step, lines })}
          isBusy={apply.isPending}
          discarding={discarding}
          onCancel={requestClose}
          onKeep={() => setDiscarding(false)}
          onDiscard={onClose}
          onConfirm={(body) =>
            apply.mutate(
              { scanId: step.scan.id, body },
              {
                onSuccess: () => {
                  toast.success('Inventory updated successfully');
                  onClose();
                },
                onError: (error) => {
                  toast.error(actionErrorMessage(error, 'Failed to update inventory'));
                  // Applied by an earlier try whose answer was lost: nothing is left to confirm.
                  if (hasErrorCode(error, 'CONFLICT') && error.message === scanMessages.alreadyApplied) onClose();
                },
              },
            )
          }
        />
      )}
    </Dialog>
  );
}

interface ConfirmItemsProps {
  scan: Scan;
  lines: ConfirmLine[];
  onChange: (lines: ConfirmLine[]) => void;
  isBusy: boolean;
  /** Leaving was asked for: the buttons become Keep Editing and Discard. */
  discarding: boolean;
  onCancel: () => void;
  onKeep: () => void;
  onDiscard: () => void;
  onConfirm: (body: NonNullable<ReturnType<typeof restockBody>>) => void;
}

function ConfirmItems({ scan, lines, onChange, isBusy, discarding, onCancel, onKeep, onDiscard, onConfirm }: ConfirmItemsProps) {
  const body = restockBody(lines);
  const short = lines.filter((l) => garageFit(l) === 'short').map((l) => l.detection.name);
  const edit = (index: number, quantityText: string) => onChange(lines.map((l, k) => (k === index ? { ...l, quantityText } : l)));
  return (
    <div className="flex flex-col gap-4">
      <img src={scan.photo_url} alt="The scanned photo" className="max-h-56 w-full rounded-xl bg-slate-100 object-contain" />
      {lines.length === 0 ? (
        <p className="rounded-xl border border-slate-200 px-4 py-6 text-center text-base text-slate-600">
          No items left to confirm. Cancel, or scan another photo.
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 rounded-xl border border-slate-200" aria-label="Detected items">
          {lines.map((line, index) => (
            <ConfirmRow
              key={line.detection.item_id}
              line={line}
              hasGarage={scan.garage !== null}
              onQuantity={(text) => edit(index, text)}
              onRemove={() => onChange(lines.filter((_, k) => k !== index))}
            />
          ))}
        </ul>
      )}
      {short.length > 0 && (
        <p role="alert" className="flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-base text-red-800">
          <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          {scanMessages.garageShort(short)}
        </p>
      )}
      {discarding ? (
        <div role="alert" className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-3">
          <p className="text-base font-medium text-amber-900">Discard these counts? Nothing has been applied yet.</p>
          <DialogActions>
            <Button variant="secondary" onClick={onKeep}>
              Keep Editing
            </Button>
            <Button variant="danger" onClick={onDiscard}>
              Discard
            </Button>
          </DialogActions>
        </div>
      ) : (
        <DialogActions>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => body && onConfirm(body)} disabled={body === null} isBusy={isBusy}>
            Confirm &amp; Update
          </Button>
        </DialogActions>
      )}
    </div>
  );
}

interface ConfirmRowProps {
  line: ConfirmLine;
  hasGarage: boolean;
  onQuantity: (text: string) => void;
  onRemove: () => void;
}

function ConfirmRow({ line, hasGarage, onQuantity, onRemove }: ConfirmRowProps) {
  const { detection } = line;
  const problem = quantityProblem(line.quantityText);
  const fit = garageFit(line);
  const problemId = `scan-quantity-problem-${detection.item_id}`;
  return (
    <li className="flex flex-col gap-2 px-3 py-3" data-testid="scan-row">
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words text-slate-900">{detection.name}</p>
          <p className="text-sm text-slate-600">Confidence: {confidencePercent(detection.confidence)}</p>
        </div>
        <input
          type="text"
          inputMode="numeric"
          value={line.quantityText}
          onChange={(e) => onQuantity(e.target.value)}
          aria-label={`Quantity of ${detection.name}`}
          aria-invalid={problem !== null || undefined}
          aria-describedby={problem ? problemId : undefined}
          className="min-h-11 w-20 rounded-lg border border-slate-300 px-2 text-center text-base text-slate-900 focus:outline-2 focus:outline-blue-600 aria-invalid:border-red-600"
        />
        <IconButton icon={Trash2} tone="danger" label={`Remove ${detection.name}`} onClick={onRemove} />
      </div>
      {problem && (
        <p id={problemId} role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {detection.second_look && (
        <p className="flex items-center gap-1.5 text-sm text-amber-800">
          <Eye className="size-4 shrink-0" aria-hidden="true" />
          Over 10 counted: worth a second look, photos count large numbers only roughly.
        </p>
      )}
      {hasGarage && (
        <p className={`text-sm font-medium ${fit === 'short' ? 'text-red-700' : 'text-green-700'}`} data-fit={fit ?? undefined}>
          Available in Garage: {detection.available_in_garage ?? 0}
        </p>
      )}
    </li>
  );
}
