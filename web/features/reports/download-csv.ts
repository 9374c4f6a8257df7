/**
 * Saves text the server produced as a CSV file through the browser's download, without a round
 * trip. The server writes no cell a spreadsheet would run as a formula
 * (docs/decisions/012-report-injections.md), so the bytes are kept as they are.
 */

/** Downloads `csv` exactly as given under `fileName`. */
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once the click has been handled; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
