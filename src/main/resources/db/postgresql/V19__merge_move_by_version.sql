-- The change stream finds the merge or unmerge that gave a profile a version (docs/change-stream.md): the profile's
-- moves, by pid and version.
CREATE INDEX IF NOT EXISTS merge_move_pid_version ON merge_move (pid, version);
