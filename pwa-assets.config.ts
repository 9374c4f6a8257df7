/**
 * The app's icons, made from one drawing (web/public/favicon.svg) by @vite-pwa/assets-generator
 * with `npm run pwa:assets`; the PNGs and favicon.ico it writes beside the drawing are committed,
 * so a build needs neither the tool nor sharp's SVG rendering (decision 046).
 *
 * - `pwa-192x192.png`, `pwa-512x512.png`: the manifest's icons, the drawing as it is (a rounded
 *   square in the theme colour), transparent corners;
 * - `maskable-icon-512x512.png`: the manifest's maskable icon, which a launcher crops to its own
 *   shape: the drawing shrunk by a fifth on a full square of the same colour, so the boxes stay
 *   inside the safe circle (80 % of the width) and the corners are never blank;
 * - `apple-touch-icon-180x180.png`: iOS rounds it itself and shows transparency as black, hence
 *   the same full square;
 * - `favicon.ico` (48 px) for browsers that do not take the SVG.
 */
import { defineConfig } from '@vite-pwa/assets-generator/config';

/** The theme colour of index.html and of the manifest (vite.config.ts). */
const THEME_COLOUR = '#1e40af';

export default defineConfig({
  headLinkOptions: { preset: '2023' },
  preset: {
    transparent: { sizes: [192, 512], padding: 0, favicons: [[48, 'favicon.ico']] },
    maskable: { sizes: [512], padding: 0.2, resizeOptions: { background: THEME_COLOUR } },
    apple: { sizes: [180], padding: 0.2, resizeOptions: { background: THEME_COLOUR } },
  },
  images: ['web/public/favicon.svg'],
});
