/**
 * The CSV rule of docs/decisions/012-report-injections.md: text that a spreadsheet would run as a
 * formula is quoted as text, numbers stay numbers, and the file still reads back cell for cell.
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadsheetText, toCsv } from './csv';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

describe('spreadsheetText', () => {
  it.each([
    ['=HYPERLINK("https://evil.example","Open")', `'=HYPERLINK("https://evil.example","Open")`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
    ['-', "'-"],
    ['--5', "'--5"],
    ['-3.', "'-3."],
    ['-1e3', "'-1e3"],
  ])('quotes %j', (cell, shown) => {
    expect(spreadsheetText(cell)).toBe(shown);
  });

  it.each(['-3', '-45.50', '0', '12', 'Towel', "'=already quoted", ' =1+1', '[Reset](https://evil.example)', ''])('keeps %j', (cell) => {
    expect(spreadsheetText(cell)).toBe(cell);
  });
});

describe('toCsv', () => {
  it('writes numbers as numbers, negative ones too, and quotes formulas in text cells', () => {
    expect(toCsv(['Item', 'Change', 'Cost ($)'], [['=1+1', -3, '-4.50'], ['@x', 7, '0.30']])).toBe(
      "Item,Change,Cost ($)\n'=1+1,-3,-4.50\n'@x,7,0.30\n",
    );
  });

  it('never writes a cell that starts a formula, and reads back as what a spreadsheet shows', () => {
    const cell = fc.oneof(
      fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '"', ',', "'", 'a', '1', ' ') }),
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { maxLength: 5 }), (rows) => {
        const read: string[][] = parse(toCsv(['A', 'B'], rows));
        expect(read).toHaveLength(rows.length + 1);
        rows.forEach((row, r) =>
          row.forEach((value, c) => {
            const back = read[r + 1]![c]!;
            if (typeof value === 'number') expect(back).toBe(String(value));
            else expect(back).toBe(FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value);
            if (typeof value === 'string') expect(FORMULA_START.test(back) && !PLAIN_NUMBER.test(back)).toBe(false);
          }),
        );
      }),
    );
  });
});
