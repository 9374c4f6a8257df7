/**
 * AuthRequestError: a failed call to the better-auth endpoints, with better-auth's own error code
 * (e.g. EMAIL_NOT_VERIFIED, USER_ALREADY_EXISTS) and message.
 */
export class AuthRequestError extends Error {
  /** better-auth's error code; NETWORK_ERROR when no answer arrived. */
  readonly code: string | undefined;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;

  constructor(code: string | undefined, message: string, status: number) {
    super(message);
    this.name = 'AuthRequestError';
    this.code = code;
    this.status = status;
  }
}

interface AuthClientResult {
  error: { code?: string; message?: string; status: number; statusText: string } | null;
}

/**
 * Runs one auth client call and turns its `{ error }` result, or a thrown network failure, into
 * an AuthRequestError.
 */
export async function runAuthCall(call: () => Promise<AuthClientResult>): Promise<void> {
  let result: AuthClientResult;
  try {
    result = await call();
  } catch {
    throw new AuthRequestError('NETWORK_ERROR', 'Network error. Please check your connection and try again.', 0);
  }
  const { error } = result;
  if (error) throw new AuthRequestError(error.code, error.message || error.statusText, error.status);
}
