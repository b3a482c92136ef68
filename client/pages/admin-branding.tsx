import { BrandProvider } from '../admin/brand.tsx';
import { BrandingScreen } from '../admin/branding/branding-screen.tsx';
import { ConsolePage } from '../admin/console-page.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin-branding.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The admin console's branding of CLI and ORG users (client/admin/branding/). */
export default function AdminBrandingPage({ data, user, brand }: PageProps<LoaderData<typeof loader>>) {
  return (
    <ConsolePage current="admin-branding">
      {/* The editor shows the brand's default colour and logo. */}
      <BrandProvider value={brand}>
        <BrandingScreen users={data.users} query={data.query} chosen={data.chosen} user={user} headingId="admin-branding-title" />
      </BrandProvider>
    </ConsolePage>
  );
}
