import { ConsolePage } from '../admin/console-page.tsx';
import { PipelineScreen } from '../admin/pipeline-screen.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin-projects.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The admin console's projects: the pipeline, filtered and paged by the URL (client/admin/pipeline-screen.tsx). */
export default function AdminProjectsPage({ data }: PageProps<LoaderData<typeof loader>>) {
  return (
    <ConsolePage current="admin-projects">
      <PipelineScreen pipeline={data.pipeline} headingId="pipeline-title" />
    </ConsolePage>
  );
}
