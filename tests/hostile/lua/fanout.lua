-- Hostile: hooks that run hooks.  pos:in_check runs move generation,
-- which runs the tier hook, which calls pos:in_check again, up to 8
-- levels deep; each level calls it v times (variable 1) under pcall, so
-- one hook call would make v^8 nested calls.  The budget is shared by the
-- nested calls, each counting its cost; once it is spent, nested hooks
-- are refused and pos:in_check fails at once until the outermost hook
-- returns, and that hook fails even though its pcalls caught the error.
effect{
  name = "fanout",
  tier = function(pos, sq, index, tier)
    for i = 1, pos:var(1) do pcall(pos.in_check, pos, 1) end
  end,
  veto = function(pos, move)
    for i = 1, pos:var(1) do pcall(pos.in_check, pos, 1) end
    return false
  end,
}
