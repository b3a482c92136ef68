// A menu made of a native disclosure (<details>/<summary>): the browser gives its button the
// role and expanded state, Enter and Space toggle it, and it works without JavaScript. With
// JavaScript this adds what a menu is expected to do: Escape closes it (focus back on its
// button; Escape inside an open dialog stays the dialog's, and the innermost menu closes
// first), and so does a click outside it (not while a dialog it opened is up).
import { useEffect, useRef, useState, type KeyboardEvent, type SyntheticEvent } from 'react';

export function useDisclosure() {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);

  function close(focusButton: boolean) {
    const details = ref.current;
    if (!details?.open) return;
    details.open = false;
    if (focusButton) details.querySelector('summary')?.focus();
  }

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node) && !document.querySelector('dialog[open]')) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const props = {
    ref,
    onToggle: (event: SyntheticEvent<HTMLDetailsElement>) => setOpen(event.currentTarget.open),
    onKeyDown: (event: KeyboardEvent<HTMLDetailsElement>) => {
      if (event.key !== 'Escape' || !ref.current?.open || document.querySelector('dialog[open]')) return;
      event.stopPropagation();
      close(true);
    },
  };
  return { props, close };
}
