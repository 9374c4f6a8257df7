/**
 * AuthRequestError: a failed call to the /api/auth endpoints, with the code (e.g.
 * EMAIL_NOT_VERIFIED, USER_ALREADY_EXISTS, UNAUTHENTICATED) and message of the standard error
 * body `{ error: { code, message } }` the server answers.
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

/** The auth client's result: on failure, the parsed error body plus the HTTP status. */
interface AuthClientResult {
  error: { error?: { code?: string; message?: string }; status: number; statusText: string } | null;
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
  if (error) throw new AuthRequestError(error.error?.code, error.error?.message || error.statusText, error.status);
}
