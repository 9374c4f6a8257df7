/** The react-hook-form side of StockRowsEditor, shared by Add Garage and Add Unit. */
import { useFieldArray, useFormState, useWatch, type UseFormReturn } from 'react-hook-form';
import { emptyStockRow, type StockRowDraft } from './stock-rows';
import type { StockRowsEditorProps } from './StockRowsEditor';

/** The form values the hook relies on; the form may hold more fields next to them. */
interface StockRowsDraft {
  inventory: StockRowDraft[];
}

/** The editor props that are the same in every stock form; the caller adds items and the texts. */
type StockRowsEditorBinding = Pick<
  StockRowsEditorProps,
  'idPrefix' | 'rowKeys' | 'rows' | 'registerItem' | 'registerQuantity' | 'quantityError' | 'onAdd' | 'onRemove'
>;

/**
 * Binds StockRowsEditor to the `inventory` rows of a form: `form` is the form's useForm result
 * (or just its `control` and `register`), whose values hold `inventory: StockRowDraft[]` next to
 * any other fields; `idPrefix` is the form's useId, which keeps the rows' input ids unique.
 * Returns, to spread into StockRowsEditor: idPrefix, the row keys (useFieldArray's field ids),
 * the watched rows, the registrations of each row's item and quantity inputs, each row's quantity
 * message (a fraction refused), onAdd (appends a new row, emptyStockRow) and onRemove (drops the
 * row at an index).
 */
export function useStockRowsEditor<TValues extends StockRowsDraft, TOutput>(
  form: Pick<UseFormReturn<TValues, unknown, TOutput>, 'control' | 'register'>,
  idPrefix: string,
): StockRowsEditorBinding {
  // Only the `inventory` paths are used, and every TValues has them with these types, but
  // react-hook-form cannot resolve paths of a generic form type, so the form is seen as just its rows.
  const { control, register } = form as unknown as Pick<UseFormReturn<StockRowsDraft>, 'control' | 'register'>;
  const { fields, append, remove } = useFieldArray({ control, name: 'inventory' });
  const rows = useWatch({ control, name: 'inventory' });
  const { errors } = useFormState({ control, name: 'inventory' });
  return {
    idPrefix,
    rowKeys: fields.map((field) => field.id),
    rows,
    registerItem: (index) => register(`inventory.${index}.item_id`),
    registerQuantity: (index) => register(`inventory.${index}.quantity`),
    quantityError: (index) => errors.inventory?.[index]?.quantity?.message,
    onAdd: () => append({ ...emptyStockRow }),
    onRemove: remove,
  };
}
