-- The fingerprint of the request an idempotency key was first used with
-- (ledger.Fingerprint): a retry is recognised by it even when the rule check filled in
-- fields of the entry. NULL for entries without a key.
ALTER TABLE entries ADD COLUMN idem_fp TEXT;
