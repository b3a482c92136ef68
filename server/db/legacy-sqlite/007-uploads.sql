-- Every uploaded file the site keeps (avatars, branding logos): whose it is and its size, for
-- the per-user quota; the row goes when the file is replaced or removed.
CREATE TABLE uploads (
  url        TEXT    PRIMARY KEY,
  owner      TEXT    NOT NULL COLLATE NOCASE,
  bytes      INTEGER NOT NULL,
  created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;
CREATE INDEX uploads_owner ON uploads (owner);
