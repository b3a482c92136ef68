-- Per-user navbar branding in embedded mode (colour + logo per CLI/ORG user).
CREATE TABLE branding (
  user_name  TEXT PRIMARY KEY COLLATE NOCASE REFERENCES users (user_name) ON UPDATE CASCADE ON DELETE CASCADE,
  color      TEXT CHECK (color IS NULL OR color GLOB '#[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]' OR color GLOB '#[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]'),
  logo       TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
