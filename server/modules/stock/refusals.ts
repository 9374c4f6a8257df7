/**
 * The refusals a transfer from a unit's garage answers with (docs/product.md "Messages"), one
 * home for the commands that move stock from storage to a property.
 */
import { AppError } from '../../lib/errors';

/** CONFLICT 'No garage assigned to this unit'. */
export const noGarage = (): AppError => new AppError('CONFLICT', 'No garage assigned to this unit');

/** CONFLICT 'Not enough stock available in garage'. */
export const garageShort = (): AppError => new AppError('CONFLICT', 'Not enough stock available in garage');
