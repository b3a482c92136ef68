// The services of the private area's projects, as the pages and the API receive them.
import type { Conversation } from './conversation.ts';
import type { ExpertiseService } from './expertise.ts';
import type { Projects } from './service.ts';

export type ProjectServices = { projects: Projects; conversation: Conversation; expertise: ExpertiseService };
