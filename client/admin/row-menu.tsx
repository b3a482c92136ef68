// A row's actions in a menu: a native disclosure (<details>/<summary>), so the browser gives
// the button its role and expanded state, Enter and Space open it, Tab walks its items; with
// JavaScript Escape also closes it (the focus back on its button) and so does a click outside.
import type { ReactNode } from 'react';
import { useDisclosure } from '../runtime/use-disclosure.ts';

export function RowMenu({ label, labelFor, children }: { label: string; labelFor: string; children: ReactNode }) {
  const { props } = useDisclosure();
  return (
    <details className="row-menu" {...props}>
      <summary className="button button-secondary button-small">
        {label}
        <span className="visually-hidden"> {labelFor}</span>
        <span className="disclosure-caret" aria-hidden="true" />
      </summary>
      <div className="row-menu-items">{children}</div>
    </details>
  );
}
