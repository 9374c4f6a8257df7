/**
 * What the web app says while the browser is offline (docs/decisions/048-offline-reads.md,
 * docs/product.md "Offline use"), in one place so that the words change with what the app can do
 * offline.
 */

/** The shell's banner while offline, above every signed-in screen: stock changes are kept and sent later. */
export const OFFLINE_BANNER_TEXT = 'You are offline. Stock changes are kept on this phone and sent when the network is back.';

/** A screen that can show data read earlier, offline, when nothing of it was read on this device. */
export const NOT_OPENED_OFFLINE_TEXT =
  'You are offline. This screen has not been opened on this device yet, so there is nothing to show until the network is back.';

/**
 * The status line of a screen showing data read earlier, offline: 'Offline — as of 9:30 AM'.
 * @param when the time of the last read from the server, already formatted (offline-time.ts).
 */
export function offlineAsOfText(when: string): string {
  return `Offline — as of ${when}`;
}

/** The screens that only work with a connection: nothing of theirs is kept on the device. */
export type OnlineOnlyScreen = 'reports' | 'subscription' | 'users' | 'import' | 'api-keys' | 'webhooks';

/** What each online-only screen says while offline, instead of failing. */
export const NEEDS_CONNECTION_TEXT: Record<OnlineOnlyScreen, string> = {
  reports: 'Reports need a connection. They will load when you are back online.',
  subscription: 'Plans and billing need a connection. They will load when you are back online.',
  users: 'The list of users needs a connection. It will load when you are back online.',
  import: 'The Hostaway import needs a connection. It will open when you are back online.',
  'api-keys': 'API keys need a connection. They will load when you are back online.',
  webhooks: 'Webhooks need a connection. They will load when you are back online.',
};
