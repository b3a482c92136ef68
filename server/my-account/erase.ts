// Erasing an account, inside the caller's transaction: the user's row and everything that is
// only theirs go (sessions, expert profile, branding, uploaded images, their language, their
// place on projects, e-mails queued to them); what they wrote or did on projects stays for the
// company's records, attributed to DELETED_USER with no name, which the pages show as "Deleted
// user" in the reader's language. Projects they owned stay, owned by DELETED_USER.
import { leave } from '../companies/companies.ts';
import { DELETED_USER } from '../../shared/account.ts';
import type { Db } from '../db/index.ts';

type Trx = Db['k'];

/** History entries that name an expert in their detail (the name as it was when they were added or removed). */
const EXPERT_EVENTS = ['expert_added', 'expert_removed'];

export async function eraseAccount(trx: Trx, account: { userName: string }): Promise<void> {
  const me = await trx
    .selectFrom('users')
    .select(['user_name', 'email', 'name', 'last_name', 'avatar'])
    .where('user_name', '=', account.userName)
    .executeTakeFirstOrThrow();
  // The spelling the projects were written with (some of their columns compare case by case).
  const userName = me.user_name;

  // The history names an expert by the name they had when added or removed: those entries, on
  // the projects they were on or took part in, stop naming them.
  const expertRows = await trx.selectFrom('project_experts').select(['project_id', 'name']).where('user_name', '=', userName).execute();
  const names = [...new Set([`${me.name} ${me.last_name}`.trim(), ...expertRows.map((e) => e.name)].filter(Boolean))];
  const tookPart = trx
    .selectFrom('project_reads')
    .select('project_id')
    .where('user_name', '=', userName)
    .union(trx.selectFrom('project_messages').select('project_id').where('author', '=', userName))
    .union(trx.selectFrom('project_experts').select('project_id').where('user_name', '=', userName));
  if (names.length > 0) {
    await trx
      .updateTable('project_events')
      .set({ detail: DELETED_USER })
      .where('kind', 'in', EXPERT_EVENTS)
      .where('detail', 'in', names)
      .where('project_id', 'in', tookPart)
      .execute();
    // So do the notifications that told of their assignment (they then say "an expert").
    await trx
      .updateTable('notifications')
      .set({ detail: null })
      .where('kind', '=', 'expert_assigned')
      .where(
        'detail',
        'in',
        names.map((name) => JSON.stringify({ expert: name })),
      )
      .where('project_id', 'in', tookPart)
      .execute();
  }

  // What they did on projects stays, by nobody in particular.
  await trx.updateTable('project_messages').set({ author: DELETED_USER, author_name: '' }).where('author', '=', userName).execute();
  await trx.updateTable('project_events').set({ actor: DELETED_USER, actor_name: '' }).where('actor', '=', userName).execute();
  await trx.updateTable('project_milestones').set({ done_by: DELETED_USER, done_by_name: '' }).where('done_by', '=', userName).execute();
  await trx.updateTable('project_documents').set({ uploaded_by: DELETED_USER }).where('uploaded_by', '=', userName).execute();
  await trx.updateTable('projects').set({ proposal_sent_by: DELETED_USER }).where('proposal_sent_by', '=', userName).execute();
  await trx.updateTable('project_proposals').set({ sent_by: DELETED_USER }).where('sent_by', '=', userName).execute();
  // Who accepted stays a fact of the project; their address does not.
  await trx
    .updateTable('project_proposals')
    .set({ answered_by: DELETED_USER, answered_ip: null })
    .where('answered_by', '=', userName)
    .execute();
  await trx.updateTable('projects').set({ owner: DELETED_USER, owner_name: '' }).where('owner', '=', userName).execute();
  await trx.updateTable('notifications').set({ actor: '', actor_user: DELETED_USER }).where('actor_user', '=', userName).execute();
  // Their company keeps its projects; it is managed by whoever is left (leave() promotes one).
  // A company named after them (the name it was given when they joined alone) stops naming them:
  // it reads "Deleted user" until someone left in it renames it.
  const company = await trx
    .selectFrom('company_members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['c.id', 'c.name'])
    .where('m.user_name', '=', userName)
    .executeTakeFirst();
  await leave(trx, userName);
  if (company && names.includes(company.name.trim())) {
    await trx.updateTable('companies').set({ name: DELETED_USER }).where('id', '=', company.id).execute();
  }
  // An expert who is gone works on nothing: the project shows that it needs another.
  await trx.deleteFrom('project_experts').where('user_name', '=', userName).execute();
  await trx.deleteFrom('project_reads').where('user_name', '=', userName).execute();

  // What was only theirs.
  await trx.deleteFrom('sessions').where('user_name', '=', userName).execute();
  await trx.deleteFrom('expertise').where('user_name', '=', userName).execute();
  await trx.deleteFrom('branding').where('user_name', '=', userName).execute();
  await trx.deleteFrom('uploads').where('owner', '=', userName).execute();
  if (me.avatar) await trx.deleteFrom('uploads').where('url', '=', me.avatar).execute();
  await trx.deleteFrom('user_locales').where('user_name', '=', userName).execute();
  await trx.deleteFrom('notifications').where('user_name', '=', userName).execute();
  await trx.deleteFrom('calendar_feeds').where('user_name', '=', userName).execute();
  await trx.deleteFrom('mail_preferences').where('user_name', '=', userName).execute();
  await trx.deleteFrom('milestone_reminders').where('user_name', '=', userName).execute();
  if (me.email) await trx.deleteFrom('mail_outbox').where('recipient', '=', me.email).execute();
  // Their second factor and their single-use links: a later account of the same name starts clean.
  await trx.deleteFrom('two_factor').where('user_name', '=', userName).execute();
  await trx.deleteFrom('two_factor_recovery_codes').where('user_name', '=', userName).execute();
  await trx.deleteFrom('two_factor_challenges').where('user_name', '=', userName).execute();
  await trx.deleteFrom('account_links').where('user_name', '=', userName).execute();
  await trx.deleteFrom('deletion_requests').where('user_name', '=', userName).execute();
  await trx.deleteFrom('users').where('user_name', '=', userName).execute();
}
