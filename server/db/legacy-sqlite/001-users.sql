-- Users of the private area (docs/specification.md §3.1, §14).
CREATE TABLE users (
  id            INTEGER PRIMARY KEY,
  user_name     TEXT    NOT NULL UNIQUE COLLATE NOCASE,
  email         TEXT    UNIQUE COLLATE NOCASE,
  name          TEXT    NOT NULL,
  last_name     TEXT    NOT NULL,
  role          TEXT    NOT NULL CHECK (role IN ('ADMIN', 'CLI', 'ORG', 'CONS')),
  avatar        TEXT,
  scopes        TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(scopes)),
  password_hash TEXT    NOT NULL,
  disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Counters shared by every process (login failures per account and per IP).
CREATE TABLE rate_limits (
  key      TEXT    PRIMARY KEY,
  count    INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
);
