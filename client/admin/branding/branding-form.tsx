// The frame of each of the branding editor's forms: posted by script only (the editor saves
// through the API), the browser's own validation bubbles off (the form shows its own errors).
import type { ReactNode } from 'react';

export function BrandingForm({ onSubmit, children }: { onSubmit: (form: HTMLFormElement) => void; children: ReactNode }) {
  return (
    <form
      className="admin-branding-form"
      method="post"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event.currentTarget);
      }}
    >
      {children}
    </form>
  );
}
