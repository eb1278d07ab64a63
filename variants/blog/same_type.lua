-- The same-type rule for strikes (blog rules): two pieces of one face and
-- side never share a tower.  The engine refuses stacks and drops that
-- would break it; a mobile strike lands its piece on what remains of the
-- tower, and a Betrayal turns pieces over, so these are checked after the
-- move.  (Check is decided without this rule: see docs/rules/blog.md.)
effect{
  name = "same-type",
  veto_kinds = {"capture", "strike"},
  -- asked only when the tower holds two pieces of one face and side
  veto_count = {on = "tower", each = true, min = 2},
  veto = function(pos, move)
    local sq = move.kind == "strike" and move.from or move.to
    local seen = {}
    for _, p in ipairs(pos:tower(sq)) do
      local key = p.face .. "/" .. p.owner
      if seen[key] then
        return true
      end
      seen[key] = true
    end
    return false
  end,
}
