import { columnTypes, type Migration } from './migration.ts';

export const calendarFeeds: Migration = {
  version: 21,
  name: "calendar feeds: a user's private iCalendar address, renewed or stopped from their profile",
  async up(db, engine) {
    const t = columnTypes(engine);
    // The address is the row's id and a MAC of (id, user, generation) under a key of the site's:
    // nothing secret is stored, a new generation kills the old address (server/calendar-feed/feeds.ts).
    await db.schema
      .createTable('calendar_feeds')
      .addColumn('id', t.serial, (c) => c.primaryKey())
      .addColumn('user_name', t.nocase, (c) => c.notNull().unique())
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
