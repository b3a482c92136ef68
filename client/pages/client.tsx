import { AreaDashboard } from '../components/area-dashboard.tsx';
import type { PageProps } from './registry.ts';

const ITEMS = ['brief', 'projects', 'contact'] as const;

export default function ClientPage({ user }: PageProps<'client'>) {
  return <AreaDashboard area="client" items={ITEMS} user={user} />;
}
