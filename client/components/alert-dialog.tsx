import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * Alert dialogs with confirm #9acd32 and cancel #ff4500 (the specification's colours). A modal <dialog>: the
 * browser traps focus and Escape cancels; focus starts on Cancel (the safe choice) and
 * returns to where it was.
 */
export function AlertDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const previous = document.activeElement as HTMLElement | null;
      dialog.showModal();
      cancelRef.current?.focus();
      return () => previous?.focus?.();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // Closed, the dialog is an empty element: no heading without its words (a page's outline and
  // the Nu checker count a closed dialog's <h2> too), nothing its name could point at.
  return (
    <dialog
      ref={ref}
      className="alert-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={open ? titleId : undefined}
      aria-describedby={open && children ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children && <div id={bodyId}>{children}</div>}
          <div className="alert-dialog-actions">
            <button ref={cancelRef} type="button" className="alert-cancel" onClick={onCancel}>
              {cancelLabel}
            </button>
            <button type="button" className="alert-confirm" onClick={onConfirm}>
              {confirmLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
