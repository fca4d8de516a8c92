-- A result delivered inline but kept in the blob store (QUIRE_RESULT_ROW_LIMIT_BYTES): the job row
-- holds only its key. result_blob stays what it was: a result delivered as a single-use URL.
ALTER TABLE jobs ADD COLUMN result_inline_blob text;
