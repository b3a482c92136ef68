import { AreaDashboard } from '../components/area-dashboard.tsx';
import type { PageProps } from './registry.ts';

const ITEMS = ['profile', 'projects', 'community'] as const;

export default function ExpertPage({ user }: PageProps<'expert'>) {
  return <AreaDashboard area="expert" items={ITEMS} user={user} />;
}
