/** The new password and its confirmation, as sign-up checks them (common/contracts/password.ts). */
import { z } from 'zod';
import { newPassword } from '../../../common/contracts/password';

export const newPasswordFields = { password: newPassword, confirmPassword: z.string() };

/** Refuses a confirmation that differs from the password, on the confirmation field. */
export const passwordsMatch: [(form: { password: string; confirmPassword: string }) => boolean, { message: string; path: string[] }] = [
  (form) => form.password === form.confirmPassword,
  { message: 'Passwords do not match', path: ['confirmPassword'] },
];
