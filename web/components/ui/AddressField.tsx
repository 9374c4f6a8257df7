/**
 * The street address of a garage or a unit, the same in every form that asks for one: the
 * browser's address autofill and the server's text limit (common/contracts/fields.ts).
 */
import type { ComponentProps } from 'react';
import { MAX_TEXT_LENGTH } from '../../../common/contracts/fields';
import { TextField } from './TextField';

/** A TextField labelled "Address"; other props (id, invalid, error, registration) go through. */
export function AddressField(props: Omit<ComponentProps<typeof TextField>, 'label' | 'autoComplete' | 'maxLength'>) {
  return <TextField label="Address" autoComplete="street-address" maxLength={MAX_TEXT_LENGTH} {...props} />;
}
