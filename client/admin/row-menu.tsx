// A row's actions in a menu: a native disclosure (<details>/<summary>), so the browser gives
// the button its role and expanded state, Enter and Space open it, Tab walks its items; with
// JavaScript Escape also closes it (the focus back on its button) and so does a click outside.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export function RowMenu({ label, labelFor, children }: { label: string; labelFor: string; children: ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      // Not while a confirmation is up: its clicks are outside the menu.
      const details = menu.current;
      if (details && !details.contains(event.target as Node) && !document.querySelector('dialog[open]')) details.open = false;
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLDetailsElement>) {
    const details = menu.current;
    if (event.key !== 'Escape' || !details?.open || document.querySelector('dialog[open]')) return;
    event.stopPropagation();
    details.open = false;
    details.querySelector('summary')?.focus();
  }

  return (
    <details ref={menu} className="row-menu" onToggle={(event) => setOpen(event.currentTarget.open)} onKeyDown={onKeyDown}>
      <summary className="button button-secondary button-small">
        {label}
        <span className="visually-hidden"> {labelFor}</span>
        <span className="row-menu-caret" aria-hidden="true" />
      </summary>
      <div className="row-menu-items">{children}</div>
    </details>
  );
}
