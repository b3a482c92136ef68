-- Contact messages (issue 6): committed before the visitor hears "sent", never lost.
CREATE TABLE contact_messages (
  id              INTEGER PRIMARY KEY,
  name            TEXT    NOT NULL,
  email           TEXT    NOT NULL,
  subject         TEXT    NOT NULL,
  message         TEXT    NOT NULL,
  locale          TEXT    NOT NULL CHECK (locale IN ('es', 'en')),
  consent_at      TEXT    NOT NULL,
  ip              TEXT,
  read            INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1)),
  -- E-mail notification: 'none' (no SMTP), 'pending', 'sent', 'failed' (gave up after retries).
  notify_status   TEXT    NOT NULL DEFAULT 'none' CHECK (notify_status IN ('none', 'pending', 'sent', 'failed')),
  notify_attempts INTEGER NOT NULL DEFAULT 0,
  notify_error    TEXT,
  created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX contact_messages_created ON contact_messages (created_at DESC);
CREATE INDEX contact_messages_notify ON contact_messages (notify_status) WHERE notify_status = 'pending';
