// Global setup of the suites that run on PostgreSQL too: one throw-away cluster for the run
// (test/helpers/postgres.ts), handed to the tests as inject('postgresUrl'); each test makes its
// own database in it. Without PostgreSQL on the machine the PostgreSQL project cannot run: CI
// (CI=true, or REQUIRE_POSTGRES=1) fails then, a developer's run says how to install it.
import type { TestProject } from 'vitest/node';
import { postgresBinDir, startPostgres } from '../helpers/postgres.ts';

export default async function setup(project: TestProject) {
  if (!postgresBinDir()) {
    throw new Error(
      'The PostgreSQL tests need PostgreSQL 15 installed (Debian: apt-get install -y postgresql); `bash .ci/run` installs it.',
    );
  }
  const cluster = await startPostgres();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
