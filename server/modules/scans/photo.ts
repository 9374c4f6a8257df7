/**
 * A scanned photo as the server keeps it (docs/product.md "Screens: AI photo scanner", decision 035): the
 * upload is decoded by sharp and written again as a JPEG at most SCAN_PHOTO_MAX_WIDTH pixels wide
 * and of quality SCAN_JPEG_QUALITY, turned upright by its EXIF orientation. sharp writes no
 * metadata unless told to, so EXIF, GPS location, XMP and ICC data of the upload are not kept.
 *
 * Refused, each with a message naming the limit: an empty upload, what is not a raster image in a
 * format listed in ACCEPTED_FORMATS (a PDF named .jpg, an SVG), and an image of more than
 * `maxInputPixels` pixels, which sharp refuses from the dimensions in its header, before decoding
 * it. The upload's size limit is enforced while it is read (routes.ts).
 */
import type { Sharp } from 'sharp';
import { SCAN_JPEG_QUALITY, SCAN_PHOTO_MAX_WIDTH } from '../../../common/contracts/scans';
import { AppError } from '../../lib/errors';

/** Formats sharp decodes that a camera or a browser produces. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'avif', 'heif', 'tiff', 'gif']);

const notAnImage = () => new AppError('VALIDATION', 'Failed to process image: the file is not a JPEG, PNG, WebP, AVIF, HEIF, TIFF or GIF image.');

/** sharp is loaded with the first photo: a server that never scans never holds it. */
let sharpModule: Promise<(input: Buffer, options: object) => Sharp> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

/**
 * Re-encodes an uploaded photo.
 * @param maxInputPixels largest width × height accepted.
 * @returns the JPEG to keep and to send to the model.
 * @throws AppError VALIDATION for an empty file, a file that is not an accepted image, or an image
 *   of more than `maxInputPixels` pixels.
 */
export async function reencodePhoto(upload: Buffer, maxInputPixels: number): Promise<Buffer> {
  if (upload.length === 0) throw new AppError('VALIDATION', 'Failed to process image: the file is empty.');
  const sharp = await loadSharp();
  const options = { limitInputPixels: maxInputPixels, failOn: 'error', sequentialRead: true };
  let format: string | undefined;
  try {
    ({ format } = await sharp(upload, options).metadata());
  } catch (err) {
    throw refusal(err, maxInputPixels);
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw notAnImage();
  try {
    return await sharp(upload, options)
      .autoOrient()
      .resize({ width: SCAN_PHOTO_MAX_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: Math.round(SCAN_JPEG_QUALITY * 100), mozjpeg: true })
      .toBuffer();
  } catch (err) {
    throw refusal(err, maxInputPixels);
  }
}

/** The refusal for an error of sharp: the pixel limit by its message, anything else as not an image. */
function refusal(err: unknown, maxInputPixels: number): AppError {
  const message = err instanceof Error ? err.message : '';
  if (/pixel limit/i.test(message)) {
    return new AppError(
      'VALIDATION',
      `Failed to process image: it has more than ${(maxInputPixels / 1e6).toLocaleString('en-US')} million pixels. Take a smaller photo.`,
    );
  }
  return notAnImage();
}
