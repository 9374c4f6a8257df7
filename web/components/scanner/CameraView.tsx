/**
 * The camera view of the scanner (docs/product.md "Screens: AI photo scanner"): the live picture of the
 * rear camera when there is one (`facingMode: environment`, preferred, not required, so a laptop's
 * only camera works too) and Capture, which takes the frame at the photo's size. The camera is
 * released when the view goes away.
 */
import { useEffect, useRef, useState } from 'react';
import { Camera } from 'lucide-react';
import { Button } from '../ui/Button';
import { DialogActions } from '../ui/Dialog';
import { Spinner } from '../ui/Spinner';
import { encodeFitted } from './photo-downscale';

interface CameraViewProps {
  /** The captured photo, already downscaled. */
  onCapture: (photo: Blob) => void;
  /** The camera could not be opened or read. */
  onFail: () => void;
  onCancel: () => void;
}

/** Renders the live picture with Capture and Cancel. */
export function CameraView({ onCapture, onFail, onCancel }: CameraViewProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  const [capturing, setCapturing] = useState(false);
  // Read in the effect, so new callbacks on every render do not reopen the camera.
  const onFailRef = useRef(onFail);
  useEffect(() => {
    onFailRef.current = onFail;
  }, [onFail]);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let gone = false;
    const open = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
        if (gone) return;
        const element = video.current!;
        element.srcObject = stream;
        await element.play();
        if (!gone) setReady(true);
      } catch {
        if (!gone) onFailRef.current();
      }
    };
    void open();
    return () => {
      gone = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  const capture = async () => {
    const element = video.current;
    if (!element || element.videoWidth === 0) return;
    setCapturing(true);
    try {
      onCapture(await encodeFitted(element, element.videoWidth, element.videoHeight));
    } catch {
      setCapturing(false);
      onFail();
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="relative flex aspect-[4/3] items-center justify-center overflow-hidden rounded-xl bg-slate-900">
        <video ref={video} muted playsInline className="size-full object-cover" aria-label="Camera" />
        {!ready && (
          <span className="absolute inset-0 flex items-center justify-center text-white">
            <Spinner className="size-8" label="Opening the camera" />
          </span>
        )}
      </div>
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={() => void capture()} disabled={!ready} isBusy={capturing}>
          <Camera className="size-5" aria-hidden="true" />
          Capture
        </Button>
      </DialogActions>
    </div>
  );
}
