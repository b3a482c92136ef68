// Each test file ends by closing what it opened through test/helpers/app.ts and left open (apps,
// databases, the file's shared app): the next file in the same worker starts from nothing.
import { afterAll } from 'vitest';
import { closeFileResources } from '../helpers/app.ts';

afterAll(closeFileResources);
