-- Contact form tokens already used to send a message: each token sends one message. Rows are
-- kept until the token would have expired anyway (then they are deleted).
CREATE TABLE used_form_tokens (
  digest TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX used_form_tokens_expiry ON used_form_tokens (expires_at);
