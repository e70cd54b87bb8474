import { useEffect, useRef } from 'react';

export interface TriageActions {
  move(step: 1 | -1): void;
  toggle(): void;
  status(status: 'read' | 'unread' | 'archived'): void;
  open(): void;
  search(): void;
}

/** The inbox's keys, as the page's "Keyboard shortcuts" lists them. */
export const TRIAGE_KEYS: Array<{ key: string; does: string }> = [
  { key: 'j', does: 'next item' },
  { key: 'k', does: 'previous item' },
  { key: 'x', does: 'select or unselect the item' },
  { key: 'r', does: 'mark the selected items (or the item) read' },
  { key: 'u', does: 'mark them unread' },
  { key: 'a', does: 'archive them' },
  { key: 'o', does: 'open the item' },
  { key: '/', does: 'search' },
];

/** Typing in a field, or a dialog on top, keeps its keys; so do shortcuts of the browser and system. */
function ignored(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, select, textarea, [contenteditable="true"], dialog')) return true;
  return document.querySelector('dialog[open]') !== null;
}

/** Single keys for triage (j/k move, x select, r/u/a change status, o open, / search) while the page is shown. */
export function useTriageKeys(actions: TriageActions): void {
  // The latest actions, so the listener is added once and always sees the page's current state.
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (ignored(event)) return;
      const act = latest.current;
      const handlers: Record<string, () => void> = {
        j: () => act.move(1),
        k: () => act.move(-1),
        x: () => act.toggle(),
        r: () => act.status('read'),
        u: () => act.status('unread'),
        a: () => act.status('archived'),
        o: () => act.open(),
        '/': () => act.search(),
      };
      const handler = handlers[event.key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
