-- Tokens issued before a password change (or an admin's reset) stop working.
ALTER TABLE users ADD COLUMN password_changed_at INTEGER NOT NULL DEFAULT 0;
