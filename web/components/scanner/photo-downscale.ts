/**
 * The photo as it leaves the browser (docs/product.md "Constants and limits"): at most
 * SCAN_PHOTO_MAX_WIDTH pixels wide, as a JPEG of quality SCAN_JPEG_QUALITY. The server re-encodes
 * it anyway; this keeps the upload small on a phone network.
 */
import { SCAN_JPEG_QUALITY, SCAN_PHOTO_MAX_WIDTH } from '../../../common/contracts/scans';

/** The size a `width` × `height` image is drawn at: as it is when narrow enough, else scaled to `maxWidth`. */
export function fitWidth(width: number, height: number, maxWidth = SCAN_PHOTO_MAX_WIDTH): { width: number; height: number } {
  if (width <= maxWidth) return { width, height };
  return { width: maxWidth, height: Math.max(1, Math.round((height * maxWidth) / width)) };
}

/** Draws `source` (`width` × `height`) at its fitted size and encodes it as the JPEG to send. @throws when the browser cannot encode it */
export async function encodeFitted(source: CanvasImageSource, width: number, height: number): Promise<Blob> {
  const size = fitWidth(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas');
  context.drawImage(source, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The photo could not be encoded'))), 'image/jpeg', SCAN_JPEG_QUALITY),
  );
}

/**
 * A chosen file, decoded upright (EXIF orientation applied) and encoded as the JPEG to send.
 * @throws when the file is not an image the browser can decode.
 */
export async function downscaleFile(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    return await encodeFitted(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}
