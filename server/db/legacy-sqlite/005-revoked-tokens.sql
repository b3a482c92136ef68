-- Tokens ended by a logout before they expire: a copied session cookie stops working at once.
-- Rows are kept until the token would have expired anyway (then they are deleted).
CREATE TABLE revoked_tokens (
  digest TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX revoked_tokens_expiry ON revoked_tokens (expires_at);
