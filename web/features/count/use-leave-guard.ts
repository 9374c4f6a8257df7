/**
 * Asks before the count screen is left with unsaved changes (docs/product.md "Screens: Count"):
 * a tap on a link of the app, the Back button or gesture, and closing or reloading the tab.
 *
 * Not react-router's useBlocker: it needs the data router, whose code adds 17 kB (gzip) to every
 * first screen and breaks the 150 kB budget of decision 016 (decision 026). Instead:
 * - a link tap is caught before the router sees it (a capturing click listener on the document);
 * - Back lands on an extra history entry of this same page, pushed while there is something to
 *   lose (marked in its state), and asks there;
 * - closing or reloading gets the browser's own question (`beforeunload`).
 * Moves made by code (a session that ended) are not held: the draft is on the device anyway.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

const GUARD = 'countLeaveGuard';

const onGuardEntry = () => (window.history.state as Record<string, unknown> | null)?.[GUARD] === true;

/** Where the user tried to go: a path of the app, or back. */
export type LeaveAttempt = { kind: 'link'; to: string } | { kind: 'back' };

/**
 * Guards the screen while `unsaved` is true.
 * @returns the move waiting for an answer (null when none), `stay` and `leave` to answer it, and
 *   `goTo`, which moves without asking (after a save or a discard).
 */
export function useLeaveGuard(unsaved: boolean): {
  attempt: LeaveAttempt | null;
  stay: () => void;
  leave: () => void;
  goTo: (path: string) => void;
} {
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState<LeaveAttempt | null>(null);
  const released = useRef(false);
  const wasUnsaved = useRef(false);

  useEffect(() => {
    if (!unsaved) {
      // Nothing to lose any more: the extra entry goes, so that Back leaves at once.
      if (wasUnsaved.current && onGuardEntry() && !released.current) window.history.back();
      wasUnsaved.current = false;
      return;
    }
    wasUnsaved.current = true;
    if (!onGuardEntry()) window.history.pushState({ ...(window.history.state as object | null), [GUARD]: true }, '');

    const onClick = (event: MouseEvent) => {
      if (released.current || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      const to = new URL(link.href);
      if (to.origin !== window.location.origin || to.pathname === window.location.pathname) return;
      event.preventDefault();
      event.stopPropagation();
      setAttempt({ kind: 'link', to: `${to.pathname}${to.search}${to.hash}` });
    };
    const onPop = () => {
      if (!released.current && !onGuardEntry()) setAttempt({ kind: 'back' });
    };
    const ask = (event: BeforeUnloadEvent) => {
      if (released.current) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onPop);
    window.addEventListener('beforeunload', ask);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('beforeunload', ask);
    };
  }, [unsaved]);

  /** Moves to `path`, in place of the extra entry when on it, so that it does not linger in the history. */
  const goTo = (path: string) => {
    released.current = true;
    void navigate(path, { replace: onGuardEntry() });
  };

  return {
    attempt,
    stay: () => {
      // Back took the extra entry: a new one asks again next time.
      if (attempt?.kind === 'back') window.history.pushState({ ...(window.history.state as object | null), [GUARD]: true }, '');
      setAttempt(null);
    },
    leave: () => {
      const left = attempt;
      setAttempt(null);
      if (left?.kind === 'link') goTo(left.to);
      else {
        released.current = true;
        window.history.back();
      }
    },
    goTo,
  };
}
