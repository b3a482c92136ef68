import { AreaDashboard } from '../components/area-dashboard.tsx';
import type { PageProps } from './registry.ts';

const ITEMS = ['proposals', 'reporting', 'team'] as const;

export default function OrganizationPage({ user }: PageProps<'organization'>) {
  return <AreaDashboard area="organization" items={ITEMS} user={user} />;
}
