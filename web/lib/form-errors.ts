/** The messages a form shows above its fields, from react-hook-form's errors. */

/**
 * The distinct messages of a form's errors, in the order of `fields`, for one alert each: two
 * empty fields that share 'Please fill out all fields' show it once, while a name that is too long
 * shows its own message ('Name must be at most 200 characters').
 */
export function errorMessages(errors: Partial<Record<string, { message?: string } | undefined>>, fields: readonly string[]): string[] {
  const messages = fields.map((field) => errors[field]?.message).filter((message): message is string => Boolean(message));
  return [...new Set(messages)];
}
